import type { SaveController } from '@planwright/sdk';
import { Icon } from '../ui/icon';
import {
  type SaveBadgeInput,
  type SaveBadgeState,
  saveBadgeDetail,
  saveBadgeLabel,
  saveBadgeState,
} from './save-status';
import { useSaveSnapshot } from './use-autosave';
import { SAVE_STATUS_TEXTS } from './workspace-texts';

const TONE: Record<SaveBadgeState, string> = {
  saving: 'badge-info',
  unsaved: 'badge-warning',
  saved: 'badge-success',
  error: 'badge-error',
};

function StateIcon({ state }: { state: SaveBadgeState }) {
  // No spinner: an animation repaints the page every frame while the user types (the debounce is "saving").
  return (
    <Icon>
      {state === 'saving' && <path d="M12 17V8M8 11.5l4-4 4 4" />}
      {state === 'saved' && <path d="M5 12l5 5L20 7" />}
      {state === 'unsaved' && <circle cx="12" cy="12" r="4" />}
      {state === 'error' && <path d="M12 8v5M12 16.5v.5M4 20h16L12 4z" />}
    </Icon>
  );
}

/**
 * The save-status badge (spec 001 §2, §4; SPEC.md W8): one of four states with the spec's tooltip, read out
 * politely when it changes, with `Offline — retrying` under an error that waits for its automatic retry.
 */
export function SaveStatusBadge({
  snapshot,
  loadFailed = false,
  name = SAVE_STATUS_TEXTS.label,
}: {
  snapshot: SaveBadgeInput;
  loadFailed?: boolean;
  /** The status's accessible name, when a page has more than one (the blueprint's settings). */
  name?: string;
}) {
  const state = saveBadgeState(snapshot, loadFailed);
  const label = saveBadgeLabel(state);
  const detail = saveBadgeDetail(snapshot);
  return (
    <div className="tooltip tooltip-bottom" data-tip={label}>
      <div
        role="status"
        aria-label={name}
        aria-live="polite"
        data-state={state}
        title={label}
        className={`badge badge-soft ${TONE[state]} h-auto gap-1 py-1 whitespace-nowrap`}
      >
        <StateIcon state={state} />
        <span className="flex flex-col leading-tight">
          <span>{label}</span>
          {detail && <span className="text-xs opacity-80">{detail}</span>}
        </span>
      </div>
    </div>
  );
}

/** What the badge shows of a snapshot: two snapshots that show alike render once. */
function shownBadge(snapshot: SaveBadgeInput) {
  return { snapshot, shown: `${saveBadgeState(snapshot)}\n${saveBadgeDetail(snapshot) ?? ''}` };
}

/**
 * The workspace's badge, reading its save controller itself: it re-renders only when what it shows changes,
 * and the page around it never for the save's sake. (On a live plan the snapshot changes with every
 * keystroke; each React commit while the editor has focus measures the whole plan's selection.)
 */
export function WorkspaceSaveBadge({
  controller,
  loadFailed,
}: {
  controller: Pick<SaveController<unknown>, 'subscribe' | 'getSnapshot'>;
  loadFailed: boolean;
}) {
  // A failed load is a prop: it re-renders the badge by itself.
  const { snapshot } = useSaveSnapshot(controller, shownBadge, (a, b) => a.shown === b.shown);
  return <SaveStatusBadge snapshot={snapshot} loadFailed={loadFailed} />;
}
