import type { DiffQuery } from '@planwright/sdk';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { UsageError } from '../errors/cli-error.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema } from '../options/workspace-options.js';
import { createOutput } from '../output.js';
import type { SignedInSession } from '../session/signed-in-call.js';
import type { DiffFileReport } from '../workspace/diff-views.js';

/** What the server compares with when `--to` is not given: the plan as it is now. */
const NOW = 'now';

/** The `--format` values: the server's Markdown, the SDK's `VersionDiff` as JSON, or Word with tracked changes. */
const DIFF_FORMATS = ['md', 'json', 'docx'] as const;
type DiffFormat = (typeof DIFF_FORMATS)[number];

/** A side of the comparison as typed: a version's name (any case) or id, or `now`; trimmed, as the SDK sends it. */
const sideSchema = (z: Zod, option: string) =>
  z
    .string()
    .trim()
    .min(1, `expected a version's name or id, or ${NOW} (the plan as it is now) for ${option}`);

const diffInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    uuid: identifierSchema(z, 'document'),
    from: sideSchema(z, '--from'),
    to: sideSchema(z, '--to').optional(),
    format: z.string().trim().toLowerCase().default('md'),
    output: z.string().min(1, 'expected a file name, or - for standard output').optional(),
  });

/**
 * `planwright diff <uuid> --from <version> [--to <version>]`: what changed in a plan from one version to another,
 * or to the plan as it is now (`GET documents/{uuid}/diff/`, docs/versions.md "Comparing"), as the server's
 * Markdown (additions `{++…++}`, removals `{--…--}`) or as the SDK's `VersionDiff` in JSON; to standard output or
 * to a file (`-o`, written like `planwright export -o`). Everyone the plan is shared with compares its versions.
 */
export function registerDiffCommand(program: Command, io: CliIo): void {
  program
    .command('diff')
    .description(
      'show what changed in a document between two versions, or since one (needs `planwright login`)',
    )
    .argument('<uuid>', "the document's uuid")
    .requiredOption('--from <version>', `the version to compare from: its name (any case) or id, or ${NOW}`)
    .option('--to <version>', `the version to compare to: its name (any case) or id, or ${NOW}`, NOW)
    .option(
      '--format <format>',
      'md: Markdown, additions as {++…++} and removals as {--…--}; json: the comparison as data; docx: Word with tracked changes (needs -o)',
      'md',
    )
    .option(
      '-o, --output <file>',
      'write to this file (replaced if it exists) instead of standard output, and say where it went',
    )
    .addHelpText(
      'after',
      `
Only the sections and subsections that changed are shown, each with what became of it (added, removed,
renamed, moved, finalized) and its text compared word by word. The file -o writes holds the server's text as
it is; standard output gets it made safe for the terminal. With -o, --json prints where it went as JSON.

Examples:
  planwright diff 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --from "Sent to bank, v3"
  planwright diff 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --from v1 --to v2 -o changes.md
  planwright diff 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --from v1 --format json | jq .summary`,
    )
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, diffInput);
      const hint = 'Run `planwright diff --help` for usage.';
      const format = diffFormat(input.format, hint);
      const files = await import('../transfer/transfer-files.js');
      const output = input.output === files.STDOUT_PATH ? undefined : input.output;
      if (output === undefined && input.json) {
        throw new UsageError('--json prints a report on standard output, so it needs --output <file>', {
          suggestion: 'For the comparison itself as JSON, use --format json.',
        });
      }
      if (format === 'docx' && output === undefined) {
        throw new UsageError('--format docx writes a Word file: add -o <file>.docx', { suggestion: hint });
      }
      // A folder in the way is refused before the server is asked; an existing file is replaced.
      if (output !== undefined) await files.ensureWritable(output, true);

      const [{ openSignedInSession }, views] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/diff-views.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const query: DiffQuery = { from: input.from, to: input.to ?? NOW };
      let text: string | Uint8Array;
      if (format === 'docx') {
        text = await withComparisonNotFound(session, input.uuid, query, () =>
          session.call((client) => client.versions.diffDocx(input.uuid, query)),
        );
      } else if (format === 'json') {
        const diff = await withComparisonNotFound(session, input.uuid, query, () =>
          session.call((client) => client.versions.diff(input.uuid, query)),
        );
        if (output === undefined) {
          createOutput(io, { json: true }).result(diff, () => []);
          return;
        }
        text = `${JSON.stringify(diff, null, 2)}\n`;
      } else {
        const markdown = await withComparisonNotFound(session, input.uuid, query, () =>
          session.call((client) => client.versions.diffMarkdown(input.uuid, query)),
        );
        if (output === undefined) {
          createOutput(io, { json: false }).result(markdown, () => views.diffMarkdownLines(markdown));
          return;
        }
        text = markdown;
      }

      // `output` is set here: docx without -o was refused, md and json without it printed already.
      const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
      await files.writeOutputFile(output as string, bytes, true);
      const report: DiffFileReport = {
        uuid: input.uuid,
        from: query.from,
        to: query.to ?? NOW,
        format,
        path: output as string,
        bytes: bytes.length,
      };
      createOutput(io, input).result(report, () => views.diffWrittenLine(report));
    });
}

/** `--format` as a format of the comparison. */
function diffFormat(format: string, hint: string): DiffFormat {
  const known = DIFF_FORMATS.find((candidate) => candidate === format);
  if (known !== undefined) return known;
  throw new UsageError(`--format: "${format}" is not a format of the comparison; use md, json or docx`, {
    suggestion: hint,
  });
}

/**
 * `run`, the comparison, with its 404s said as `planwright versions show` says them (its `withVersionNotFound`):
 * `Document not found.`, or `Version not found: “v9”.` naming the side that is missing. The server answers 404
 * `not_found` alike for a plan the caller does not see and for either version; when both sides are versions,
 * `from` is compared with itself, which answers 404 only when it is the one missing.
 */
async function withComparisonNotFound<T>(
  session: SignedInSession,
  uuid: string,
  query: DiffQuery,
  run: () => Promise<T>,
): Promise<T> {
  const [{ withVersionNotFound }, sdk] = await Promise.all([
    import('./versions.js'),
    import('@planwright/sdk'),
  ]);
  const versions = [query.from, query.to ?? NOW].filter((side) => side.toLowerCase() !== NOW);
  const [first = query.from, second] = versions;
  if (second === undefined) return withVersionNotFound(session, { uuid, version: first }, run);
  try {
    return await run();
  } catch (error) {
    if (!(sdk.ApiError.isInstance(error) && error.status === 404)) throw error;
    await withVersionNotFound(session, { uuid, version: first }, () =>
      session.call((client) => client.versions.diff(uuid, { from: first, to: first })),
    );
    return withVersionNotFound(session, { uuid, version: second }, () => Promise.reject(error));
  }
}
