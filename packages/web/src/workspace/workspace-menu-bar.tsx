import { ActionsMenu, type MenuAction } from '../ui/actions-menu';
import { TOP_BAR_TEXTS as TEXTS } from './workspace-texts';

/**
 * W10: the File menu (Rename, System Prompt, then the caller's entries: Import… and the exports of W29–W38)
 * and the spec's static Edit, View, Insert, Format, Tools and Help menus, shown as disabled menu buttons
 * since they do nothing yet.
 */
export function WorkspaceMenuBar({
  onRename,
  onSystemPrompt,
  extraActions = [],
  disabled = false,
}: {
  /** Absent: no Rename (the caller may not change the title). */
  onRename?: (() => void) | undefined;
  onSystemPrompt: () => void;
  /** Entries after Rename and System Prompt (Import…, Export as .md and the other formats). */
  extraActions?: readonly MenuAction[];
  disabled?: boolean;
}) {
  return (
    <div className="flex flex-wrap items-center">
      <ActionsMenu
        labelled
        label={TEXTS.file}
        disabled={disabled}
        actions={[
          ...(onRename ? [{ label: TEXTS.rename, onSelect: onRename }] : []),
          { label: TEXTS.systemPrompt, onSelect: onSystemPrompt },
          ...extraActions,
        ]}
      />
      {TEXTS.staticMenus.map((label) => (
        <button
          key={label}
          type="button"
          className="btn btn-ghost btn-sm font-normal"
          aria-haspopup="menu"
          disabled
          title={TEXTS.staticMenuHint}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
