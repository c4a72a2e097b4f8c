import { statusBadgeColor, statusLabel } from '@planwright/sdk';

const COLOR_CLASS = {
  success: 'badge-success',
  primary: 'badge-primary',
  secondary: 'badge-secondary',
} as const;

/**
 * A document's or blueprint's status (spec 000 §3, §4): its label (`In-progress`, `Unknown`…) in the spec's
 * colour (completed success, in-progress primary, anything else secondary).
 */
export function StatusBadge({ status }: { status: string | null | undefined }) {
  const color = statusBadgeColor(status);
  return (
    <span className={`badge badge-sm shrink-0 ${COLOR_CLASS[color]}`} data-color={color}>
      {statusLabel(status)}
    </span>
  );
}
