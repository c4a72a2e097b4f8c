import type { DocumentVersion, versionNameSchema } from '@planwright/sdk';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { NotFoundError } from '../errors/cli-error.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema } from '../options/workspace-options.js';
import { createOutput } from '../output.js';
import type { SignedInSession } from '../session/signed-in-call.js';

const globalInput = (z: Zod) => ({
  server: serverUrlSchema(z).optional(),
  json: z.boolean().default(false),
});

const listInput = (z: Zod) => z.object({ ...globalInput(z), uuid: identifierSchema(z, 'document') });

/**
 * The input of `planwright versions create`. `--name` is checked by the SDK's own `versionNameSchema` (what the
 * server checks too), handed in because `--help` must not load the SDK.
 */
const createInput = (name: typeof versionNameSchema) => (z: Zod) =>
  z.object({ ...globalInput(z), uuid: identifierSchema(z, 'document'), name });

const versionInput = (z: Zod) =>
  z.object({
    ...globalInput(z),
    uuid: identifierSchema(z, 'document'),
    // Names are kept trimmed, so they are looked up trimmed. `.` and `..` cannot be a URL's path segment (the
    // SDK refuses them): such a version is named by its id.
    version: z
      .string()
      .trim()
      .min(1, "expected the version's name or id")
      .refine((value) => value !== '.' && value !== '..', {
        error: (issue) => `"${String(issue.input).trim()}" can only be named by its id`,
      }),
  });

/** Versions are listed this many at a time (the server's most), every page in turn. */
const PAGE_SIZE = 100;
/** A bound on the pages read, so a server that keeps answering pages cannot keep the command running. */
const MAX_LIST_PAGES = 1000;

const LIST_HINT = 'Run `planwright documents list` to see your documents.';

/**
 * `planwright versions create|list|show|restore`: a plan's versions (docs/versions.md,
 * `documents/{uuid}/versions/`). Everyone the plan is shared with lists and reads them; its owner and editors
 * keep and restore them (anyone else gets the server's reason, 404 `not_permitted`). `--json` prints the SDK's
 * objects.
 */
export function registerVersionsCommand(program: Command, io: CliIo): void {
  const versions = program
    .command('versions')
    .description("keep, list, show and restore a document's versions (needs `planwright login`)")
    .addHelpText(
      'after',
      `
A version is the plan as it was: its title, content and progress. Owners and editors name one at any time;
one is also kept each hour while the plan is written, and before every import or restore. Everyone the plan
is shared with lists and reads them; owners and editors restore them.

Examples:
  planwright versions create 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --name "Sent to bank, v3"
  planwright versions list 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --json | jq -r '.[] | "\\(.id) \\(.name)"'
  planwright versions show 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c "Sent to bank, v3"
  planwright versions restore 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c "Sent to bank, v3"`,
    );

  versions
    .command('create')
    .description('keep the document as it is now under a name (owners and editors)')
    .argument('<uuid>', "the document's uuid")
    .requiredOption(
      '--name <name>',
      'the name: 1 to 100 characters, unique in the plan (case aside), neither an id nor "now"',
    )
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const sdk = await import('@planwright/sdk');
      const input = await parseCommandInput(command, createInput(sdk.versionNameSchema));
      const [{ openSignedInSession }, { withNotFound }, views] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../workspace/version-views.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      // A 404 `not_permitted` (a viewer or commenter) passes through with the server's reason; a 409
      // `version_name_taken` is reported as the server words it.
      const version = await withNotFound(
        () => session.call((client) => client.versions.create(input.uuid, { name: input.name })),
        sdk.DOCUMENT_TEXTS.notFound,
        LIST_HINT,
      );
      createOutput(io, input).result(version, () => views.createdVersionLine(version));
    });

  versions
    .command('list')
    .description("list a document's versions, newest first")
    .argument('<uuid>', "the document's uuid")
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, listInput);
      const [{ openSignedInSession }, { withNotFound }, views, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../workspace/version-views.js'),
        import('@planwright/sdk'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const all = await withNotFound(
        () => listAllVersions(session, input.uuid),
        sdk.DOCUMENT_TEXTS.notFound,
        LIST_HINT,
      );
      createOutput(io, input).result(all, () => views.versionListLines(all, input.uuid));
    });

  versions
    .command('show')
    .description("show a version: who kept it and when, then the plan's content as it was, as Markdown")
    .argument('<uuid>', "the document's uuid")
    .argument('<version>', "the version's name (any case) or id")
    .action(async (_uuid: string, _version: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, versionInput);
      const [{ openSignedInSession }, views] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/version-views.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const version = await withVersionNotFound(session, input, () =>
        session.call((client) => client.versions.get(input.uuid, input.version)),
      );
      // The Markdown writer is loaded only for people: `--json` prints the content tree as it came.
      const markdown = input.json
        ? ''
        : (await import('@planwright/sdk/formats')).documentToMarkdown(version.content);
      createOutput(io, input).result(version, () => views.versionDetailLines(version, markdown));
    });

  versions
    .command('restore')
    .description(
      'make the document that version again, as a new change; the document as it is now is kept first (owners and editors)',
    )
    .argument('<uuid>', "the document's uuid")
    .argument('<version>', "the version's name (any case) or id")
    .addHelpText(
      'after',
      `
Nothing of the history is rewritten: the plan as it was before the restore is kept as a "(before restore)"
version, and restoring that one undoes the restore. The command prints how.`,
    )
    .action(async (_uuid: string, _version: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, versionInput);
      const [{ openSignedInSession }, views] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/version-views.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      // Read first, to say what was restored, and restored by its id: exactly the version that was read.
      const version = await withVersionNotFound(session, input, () =>
        session.call((client) => client.versions.get(input.uuid, input.version)),
      );
      // A 404 `not_permitted` (a viewer or commenter) passes through with the server's reason.
      const document = await withVersionNotFound(session, input, () =>
        session.call((client) => client.versions.restore(input.uuid, version.id)),
      );
      // The restore is done: the undo hint is a help, and a failure to list does not turn it into a failure.
      const undo = input.json
        ? undefined
        : await session
            .call((client) => client.versions.list(input.uuid))
            .then((page) => page.items.find((item) => item.kind === 'before_restore'))
            .catch(() => undefined);
      createOutput(io, input).result(document, () => views.restoredLine(version, document, undo, input.uuid));
    });
}

/**
 * Every version of the document, newest first, read 100 at a time until the server's total is reached. A
 * version kept meanwhile pushes the others down a page: each is kept once.
 */
async function listAllVersions(session: SignedInSession, uuid: string): Promise<DocumentVersion[]> {
  const versions = new Map<string, DocumentVersion>();
  for (let page = 1; page <= MAX_LIST_PAGES; page += 1) {
    const answer = await session.call((client) => client.versions.list(uuid, { page, pageSize: PAGE_SIZE }));
    for (const version of answer.items) if (!versions.has(version.id)) versions.set(version.id, version);
    if (answer.items.length === 0 || page * PAGE_SIZE >= answer.total) break;
  }
  return [...versions.values()];
}

/**
 * `run`, a call on one version, with its 404s said as the product says them. The server answers 404 `not_found`
 * alike for a plan the caller does not see and for a version the plan does not have (never kept, or removed
 * after its retention): one version is listed to tell which. A 404 `not_permitted` passes through, so the
 * server's reason is what gets printed.
 */
export async function withVersionNotFound<T>(
  session: SignedInSession,
  input: { uuid: string; version: string },
  run: () => Promise<T>,
): Promise<T> {
  const [{ withNotFound }, sdk] = await Promise.all([
    import('../workspace/not-found.js'),
    import('@planwright/sdk'),
  ]);
  try {
    return await withNotFound(run, sdk.DOCUMENT_TEXTS.notFound, LIST_HINT);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    await withNotFound(
      () => session.call((client) => client.versions.list(input.uuid, { pageSize: 1 })),
      sdk.DOCUMENT_TEXTS.notFound,
      LIST_HINT,
    );
    throw new NotFoundError(`Version not found: “${input.version}”.`, {
      suggestion: `Run \`planwright versions list ${input.uuid}\` to see the document's versions.`,
      cause: error.cause,
    });
  }
}
