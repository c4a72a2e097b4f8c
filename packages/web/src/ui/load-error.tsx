import { Alert } from './alert';

/** Words for a read that failed, with a button to read again. */
export const RETRY_TEXT = 'Try again';

/** A failed read: its title (`Failed to load documents`), an optional detail, and Try again. */
export function LoadError({
  title,
  detail,
  onRetry,
}: {
  title: string;
  detail?: string;
  onRetry: () => void;
}) {
  return (
    <Alert kind="error">
      <span className="font-semibold">{title}</span>
      {detail && <span>{detail}</span>}
      <div>
        <button type="button" className="btn btn-sm" onClick={onRetry}>
          {RETRY_TEXT}
        </button>
      </div>
    </Alert>
  );
}
