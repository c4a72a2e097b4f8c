import type { CliIo } from './cli-io.js';

/**
 * How a command prints its result. With `--json` the result is exactly one JSON document on
 * stdout (so `planwright … --json | jq` always works); otherwise it is text for people.
 * Errors never go through here: the top-level handler writes them to stderr.
 */
export interface Output {
  readonly json: boolean;
  /**
   * Prints the command's result: `data` as JSON with `--json`, else the `human` lines (nothing
   * when there are none). `human` is a function so text is only built when it is shown.
   */
  result(data: unknown, human: () => string | readonly string[]): void;
}

export function createOutput(io: CliIo, options: { json: boolean }): Output {
  return {
    json: options.json,
    result(data, human) {
      if (options.json) {
        io.stdout.write(`${JSON.stringify(data ?? null, null, 2)}\n`);
        return;
      }
      const text = human();
      const lines = typeof text === 'string' ? [text] : text;
      if (lines.length > 0) io.stdout.write(`${lines.join('\n')}\n`);
    },
  };
}

/** Lays out `label  value` rows with the values aligned, e.g. for `planwright status`. */
export function formatFields(rows: ReadonlyArray<readonly [label: string, value: string]>): string[] {
  const width = Math.max(0, ...rows.map(([label]) => label.length + 1));
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width)}  ${value}`);
}
