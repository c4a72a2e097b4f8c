import type { ReactNode } from 'react';

const KIND_CLASS = {
  error: 'alert-error',
  success: 'alert-success',
  info: 'alert-info',
  warning: 'alert-warning',
} as const;

/**
 * A message box. Errors are `role="alert"` (read out at once); the others `role="status"`, read out when
 * the reader is free.
 */
export function Alert({ kind, children }: { kind: keyof typeof KIND_CLASS; children: ReactNode }) {
  return (
    <div role={kind === 'error' ? 'alert' : 'status'} className={`alert alert-soft ${KIND_CLASS[kind]}`}>
      <div className="grid min-w-0 gap-2 [overflow-wrap:anywhere]">{children}</div>
    </div>
  );
}
