import type { ImportFormat } from '@planwright/sdk';
import type { Ref } from 'react';
import { acceptFor, type ImportFile } from './import-actions';

/**
 * A hidden file input (the File menu's Import… and the header's Import click it). Its value is cleared after
 * each pick, so the same file can be picked again after a Cancel.
 */
export function ImportFilePicker({
  ref,
  label,
  formats,
  onPick,
}: {
  ref: Ref<HTMLInputElement>;
  label: string;
  formats: readonly ImportFormat[];
  onPick: (file: ImportFile) => void;
}) {
  return (
    <input
      ref={ref}
      type="file"
      className="hidden"
      aria-label={label}
      accept={acceptFor(formats)}
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = '';
        if (file) onPick(file);
      }}
    />
  );
}
