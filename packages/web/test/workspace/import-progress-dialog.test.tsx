import type { ImportProgress } from '@planwright/sdk';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ImportProgressDialog } from '../../src/workspace/import-dialogs';
import { renderComponent } from './render-component';

afterEach(cleanup);

function shown(progress: ImportProgress | null) {
  cleanup();
  renderComponent(<ImportProgressDialog fileName="Q3 plan.docx" progress={progress} />);
  const dialog = screen.getByRole('dialog', { name: 'Importing document' });
  const bar = within(dialog).getByRole('progressbar', { name: 'Importing document' });
  return {
    message: within(dialog).getByTestId('import-progress-message').textContent,
    value: bar.getAttribute('value'),
    max: bar.getAttribute('max'),
    valueText: bar.getAttribute('aria-valuetext'),
  };
}

describe('W30: the import’s progress dialog follows the server’s phases', () => {
  it('before the file is sent: the file’s name and a bar with no value (indeterminate)', () => {
    expect(shown(null)).toEqual({
      message: 'Reading Q3 plan.docx…',
      value: null,
      max: null,
      valueText: null,
    });
  });

  it.each<[string, ImportProgress, string, number]>([
    ['uploading', { phase: 'uploading' }, 'Uploading Q3 plan.docx…', 1],
    [
      'queued, first in line',
      { phase: 'queued', ahead: 0, waitedMs: 0, limitMs: 30_000 },
      'Waiting for a converter…',
      2,
    ],
    [
      'queued behind others',
      { phase: 'queued', ahead: 3, waitedMs: 4_000, limitMs: 30_000 },
      'Waiting for a converter… (3 ahead)',
      2,
    ],
    [
      'converting',
      { phase: 'converting', elapsedMs: 12_900, limitMs: 37_800 },
      'Converting… 12 s of at most 37.8 s',
      3,
    ],
    [
      'converting, just started',
      { phase: 'converting', elapsedMs: 0, limitMs: 10_000 },
      'Converting… 0 s of at most 10 s',
      3,
    ],
    ['saving', { phase: 'saving' }, 'Saving…', 4],
  ])('%s', (_name, progress, message, step) => {
    expect(shown(progress)).toEqual({
      message,
      value: String(step),
      max: '4',
      valueText: `Step ${step} of 4: ${message}`,
    });
  });
});
