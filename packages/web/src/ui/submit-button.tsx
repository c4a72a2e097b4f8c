import type { ReactNode } from 'react';

/** A form's main button: disabled with a spinner and its busy label while the form is being sent. */
export function SubmitButton({
  busy,
  busyLabel,
  children,
}: {
  busy: boolean;
  busyLabel: string;
  children: ReactNode;
}) {
  return (
    <button type="submit" className="btn btn-primary w-full" disabled={busy}>
      {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
      {busy ? busyLabel : children}
    </button>
  );
}
