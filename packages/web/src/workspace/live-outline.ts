import {
  type DocumentOutline,
  type DocumentProgress,
  outlineOf,
  progressOf,
  Subscribable,
} from '@planwright/sdk';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { Clock } from '../platform/clock';

/** W27: the outline and progress are recomputed at most this often while the user types. */
export const OUTLINE_REFRESH_MS = 250;

/** The sidebar's outline and the top bar's progress, read from the live editor content. */
export interface LiveOutlineSnapshot {
  outline: DocumentOutline;
  progress: DocumentProgress;
}

const EMPTY: LiveOutlineSnapshot = Object.freeze({
  outline: Object.freeze({ sections: [] }),
  progress: Object.freeze({ finalized: 0, total: 0, percent: 0 }),
});

function headingJson(type: 'sectionHeading' | 'subsectionHeading', text: string) {
  return { type, content: [{ type: 'text', text }] };
}

/**
 * The skeleton of an editor document that `outlineOf` and `progressOf` need: sections and subsections with
 * their attributes and heading text, nothing of their bodies. Walks the top two levels of the tree only (no
 * `getJSON()` of every block), so reading a 3,000-block plan costs next to nothing.
 */
export function structureSkeleton(doc: ProseMirrorNode): unknown {
  const content: unknown[] = [];
  doc.forEach((section) => {
    if (section.type.name !== 'section') {
      content.push({ type: section.type.name });
      return;
    }
    const children: unknown[] = [];
    section.forEach((child) => {
      if (child.type.name === 'sectionHeading') {
        children.push(headingJson('sectionHeading', child.textContent));
      } else if (child.type.name === 'subsection') {
        const heading = child.firstChild;
        children.push({
          type: 'subsection',
          attrs: child.attrs,
          content:
            heading?.type.name === 'subsectionHeading'
              ? [headingJson('subsectionHeading', heading.textContent)]
              : [],
        });
      }
    });
    content.push({ type: 'section', attrs: section.attrs, content: children });
  });
  return { type: 'doc', content };
}

/**
 * The outline and progress of the live content, recomputed at most every {@link OUTLINE_REFRESH_MS} while
 * the user types (`invalidate`, trailing) and at once after a load, a structure call or a finalize
 * (`refreshNow`). The snapshot keeps its identity while nothing the sidebar shows changed, so typing in a
 * paragraph re-renders nothing. Framework-free: `subscribe` / `getSnapshot` for `useSyncExternalStore`.
 */
export class LiveOutline extends Subscribable {
  private snapshot: LiveOutlineSnapshot = EMPTY;
  private key = '';
  private timer: unknown = null;
  private read: (() => unknown) | null = null;

  constructor(private readonly clock: Clock) {
    super();
  }

  readonly getSnapshot = (): LiveOutlineSnapshot => this.snapshot;

  /** Where the content comes from (`null` while there is no editor): a content tree or its skeleton. */
  setSource(read: (() => unknown) | null): void {
    this.read = read;
    this.refreshNow();
  }

  /** The content changed: recompute once the throttle interval has passed. */
  invalidate(): void {
    if (this.timer !== null) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.compute();
    }, OUTLINE_REFRESH_MS);
  }

  /** The structure changed (a load, a structure call, a finalize): recompute now. */
  refreshNow(): void {
    this.cancel();
    this.compute();
  }

  dispose(): void {
    this.cancel();
    this.read = null;
    this.unsubscribeAll();
  }

  private cancel(): void {
    if (this.timer === null) return;
    this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private compute(): void {
    if (!this.read) return;
    const tree = this.read();
    const next = { outline: outlineOf(tree), progress: progressOf(tree) };
    // The outline is small (titles and uuids): comparing its text is cheaper than re-rendering the sidebar.
    const key = JSON.stringify(next);
    if (key === this.key) return;
    this.key = key;
    this.snapshot = next;
    this.notify();
  }
}
