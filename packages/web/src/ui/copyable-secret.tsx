import { type ReactNode, useId, useState } from 'react';
import { browserClipboardWrite } from '../workspace/conflict-dialog';

/** The words of {@link CopyableSecret}. */
export const COPY_TEXTS = {
  copy: 'Copy',
  copied: 'Copied.',
  copyFailed: 'Your browser did not allow copying: select it and copy it.',
} as const;

/**
 * Something shown once that the person must keep (a share link, a personal access token): read-only, selected on
 * focus, with a Copy button that says whether the browser allowed it.
 */
export function CopyableSecret({
  label,
  value,
  children,
}: {
  label: string;
  value: string;
  children?: ReactNode;
}) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const id = useId();
  return (
    <div className="flex flex-col gap-1 rounded-box bg-base-200 p-3 text-sm">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={id}
          readOnly
          className="input input-sm min-w-0 flex-1 font-mono"
          value={value}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button
          type="button"
          className="btn btn-sm"
          onClick={() =>
            void browserClipboardWrite(value).then(
              () => setCopy('copied'),
              () => setCopy('failed'),
            )
          }
        >
          {COPY_TEXTS.copy}
        </button>
      </div>
      {children}
      <output aria-live="polite" className="text-xs">
        {copy === 'copied' ? COPY_TEXTS.copied : copy === 'failed' ? COPY_TEXTS.copyFailed : ''}
      </output>
    </div>
  );
}
