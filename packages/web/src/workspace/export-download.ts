import type { Clock } from '../platform/clock';

/** A file to hand to the browser as a download. */
export interface DownloadFile {
  fileName: string;
  contentType: string;
  /** Text is saved as UTF-8. */
  data: Uint8Array | string;
}

/** Hands a file to the browser's downloads. */
export type SaveFile = (file: DownloadFile) => void;

/**
 * Chromium and Firefox read a Blob URL after `click()` returns, so it is revoked a little later, not at once.
 * One minute covers a slow "Save as" prompt without keeping the bytes around for the page's whole life.
 */
export const DOWNLOAD_URL_LIFETIME_MS = 60_000;

/**
 * W37: the browser download of an export: a Blob URL clicked through a hidden `<a download>`, the URL revoked
 * after {@link DOWNLOAD_URL_LIFETIME_MS} on `clock`. Globals are looked up when called, so tests can stub them.
 */
export function browserSaveFile(clock: Clock): SaveFile {
  return ({ fileName, contentType, data }) => {
    // A copy into a fresh ArrayBuffer: a view over a shared or larger buffer is not a valid BlobPart everywhere.
    const part = typeof data === 'string' ? data : new Uint8Array(data);
    const blob = new Blob([part], { type: contentType });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    link.hidden = true;
    document.body.append(link);
    try {
      link.click();
    } finally {
      link.remove();
      clock.setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_LIFETIME_MS);
    }
  };
}
