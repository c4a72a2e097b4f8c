import { useEffect, useId, useRef } from 'react';

export interface BusyOverlayProps {
  title: string;
  message: string;
  /** Done so far, 0–1; absent: an indeterminate bar (the work cannot say how far it is). */
  progress?: number;
}

/**
 * Spec 001 §2 "Import and busy dialogs": a full-screen overlay with a title, a message and an optional
 * progress, over everything while a long call runs (W36: an export). It cannot be dismissed: it goes when
 * the work ends. Announced as a busy dialog; the focus moves into it so keys do not reach the page behind.
 */
export function BusyOverlay({ title, message, progress }: BusyOverlayProps) {
  const titleId = useId();
  const messageId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const shown = progress === undefined ? undefined : Math.min(1, Math.max(0, progress));

  useEffect(() => {
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    ref.current?.focus();
    return () => {
      if (returnTo?.isConnected) returnTo.focus();
    };
  }, []);

  return (
    <div
      ref={ref}
      role="dialog"
      aria-modal="true"
      aria-busy="true"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      tabIndex={-1}
      data-testid="busy-overlay"
      className="fixed inset-0 z-50 flex items-center justify-center bg-base-300/70 p-4 outline-none"
    >
      <div className="flex w-full max-w-sm flex-col gap-3 rounded-box bg-base-100 p-6 shadow-xl">
        <h2 id={titleId} className="text-lg font-bold">
          {title}
        </h2>
        <p id={messageId} className="[overflow-wrap:anywhere]">
          {message}
        </p>
        {shown === undefined ? (
          <progress className="progress progress-primary w-full" aria-label={title} />
        ) : (
          <progress
            className="progress progress-primary w-full"
            aria-label={title}
            max={100}
            value={Math.round(shown * 100)}
          />
        )}
      </div>
    </div>
  );
}
