import type { JSX } from 'react';
import { Icon } from '../ui/icon.js';

/** Line icons of the editor toolbars (24×24 strokes, like the rest of the app). */
const PATHS = {
  undo: ['M9 14L4 9l5-5', 'M4 9h11a5 5 0 0 1 0 10h-3'],
  redo: ['M15 14l5-5-5-5', 'M20 9H9a5 5 0 0 0 0 10h3'],
  bold: ['M6 4h7a4 4 0 0 1 0 8H6z', 'M6 12h8a4 4 0 0 1 0 8H6z'],
  italic: ['M19 4h-9', 'M14 20H5', 'M15 4L9 20'],
  underline: ['M6 4v6a6 6 0 0 0 12 0V4', 'M4 20h16'],
  strike: [
    'M16 6a4 4 0 0 0-4-2c-2.5 0-4 1.5-4 3.5 0 1.5 1 2.5 3 3',
    'M4 12h16',
    'M8 18a4 4 0 0 0 4 2c2.5 0 4-1.5 4-3.5',
  ],
  code: ['M16 18l6-6-6-6', 'M8 6l-6 6 6 6'],
  clearMarks: ['M4 7V4h16v3', 'M9 20h6', 'M12 4v16', 'M3 3l18 18'],
  bulletList: ['M9 6h11', 'M9 12h11', 'M9 18h11', 'M4 6h.01', 'M4 12h.01', 'M4 18h.01'],
  orderedList: [
    'M10 6h10',
    'M10 12h10',
    'M10 18h10',
    'M4 6h1v4',
    'M4 10h2',
    'M6 18H4c0-1 2-2 2-3s-1-1.5-2-1',
  ],
  clearNodes: ['M4 6h16', 'M4 12h10', 'M4 18h6', 'M15 15l5 5', 'M20 15l-5 5'],
  indent: ['M3 8l4 4-4 4', 'M21 12H11', 'M21 6H11', 'M21 18H11'],
  outdent: ['M7 8l-4 4 4 4', 'M21 12H11', 'M21 6H11', 'M21 18H11'],
} as const;

export type ToolbarIconName = keyof typeof PATHS;

export function ToolbarIcon({ name }: { name: ToolbarIconName }): JSX.Element {
  return (
    <Icon>
      {PATHS[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </Icon>
  );
}
