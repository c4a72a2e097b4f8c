import { type BlueprintVisibility, statusLabel } from '@planwright/sdk';

/** Who may see a blueprint (spec 000 §6), as an outlined badge: `Public`, `Restricted`, `Private`, `Unlisted`. */
export function VisibilityBadge({ visibility }: { visibility: BlueprintVisibility }) {
  return <span className="badge badge-sm badge-outline shrink-0">{statusLabel(visibility)}</span>;
}
