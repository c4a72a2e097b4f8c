import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { CancelledError, UsageError } from '../errors/cli-error.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema, positiveIntegerSchema } from '../options/workspace-options.js';
import { createOutput } from '../output.js';

const globalInput = (z: Zod) => ({
  server: serverUrlSchema(z).optional(),
  json: z.boolean().default(false),
});

const listInput = (z: Zod) =>
  z.object({
    ...globalInput(z),
    page: positiveIntegerSchema(z).optional(),
    pageSize: positiveIntegerSchema(z, 100).optional(),
  });

const uuidInput = (z: Zod) => z.object({ ...globalInput(z), uuid: identifierSchema(z, 'document') });

const createInput = (z: Zod) =>
  z.object({
    ...globalInput(z),
    blueprint: identifierSchema(z, 'blueprint').optional(),
    title: z.string().optional(),
  });

const renameInput = (z: Zod) =>
  z.object({ ...globalInput(z), uuid: identifierSchema(z, 'document'), title: z.string() });

const deleteInput = (z: Zod) =>
  z.object({ ...globalInput(z), uuid: identifierSchema(z, 'document'), yes: z.boolean().default(false) });

/** What `documents delete --json` prints. */
export interface DeleteReport {
  uuid: string;
  deleted: true;
}

const LIST_HINT = 'Run `planwright documents list` to see your documents.';

/**
 * `planwright documents list|create|show|rename|delete`: the signed-in user's documents. Tables and
 * fields for people (every text from the server made safe for the terminal first); `--json` prints
 * the SDK's objects.
 */
export function registerDocumentsCommand(program: Command, io: CliIo): void {
  const documents = program
    .command('documents')
    .description('list, create, show, rename and delete your documents (needs `planwright login`)');

  documents
    .command('list')
    .description('list your documents, most recently changed first')
    .option('--page <n>', 'the page to show (1, 2, …)')
    .option('--page-size <n>', 'documents per page, 1 to 100 (the server default is 20)')
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, listInput);
      const [{ openSignedInSession }, views] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/document-views.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const page = await session.call((client) =>
        client.documents.list({ page: input.page, pageSize: input.pageSize }),
      );
      createOutput(io, input).result(page, () =>
        views.documentListLines(page, { page: input.page ?? 1, pageSize: input.pageSize }),
      );
    });

  documents
    .command('create')
    .description('make a new document from a blueprint')
    .option(
      '--blueprint <uuid>',
      "the blueprint to copy (see `planwright blueprints list --available`; default: the server's default blueprint)",
    )
    .option('--title <title>', "the document's title (default: the blueprint's)")
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, createInput);
      const [{ openSignedInSession }, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('@planwright/sdk'),
      ]);
      const title =
        input.title === undefined ? undefined : checkedTitle(input.title, sdk.validateDocumentTitle);
      const session = await openSignedInSession(io, input.server);
      const document = await session.call((client) =>
        client.documents.create({
          ...(input.blueprint === undefined ? {} : { blueprint: input.blueprint }),
          ...(title === undefined ? {} : { title }),
        }),
      );
      const { terminalText } = await import('../display/terminal-text.js');
      createOutput(io, input).result(document, () => [
        `Created "${terminalText(sdk.documentTitle(document))}" (${terminalText(document.uuid)}).`,
        `Show it with \`planwright documents show ${terminalText(document.uuid)}\`.`,
      ]);
    });

  documents
    .command('show')
    .description("show a document's fields, progress and outline")
    .argument('<uuid>', "the document's uuid")
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, uuidInput);
      const [{ openSignedInSession }, { withNotFound }, views, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../workspace/document-views.js'),
        import('@planwright/sdk'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const document = await withNotFound(
        () => session.call((client) => client.documents.get(input.uuid)),
        sdk.DOCUMENT_TEXTS.notFound,
        LIST_HINT,
      );
      createOutput(io, input).result(document, () => views.documentDetailLines(document));
    });

  documents
    .command('rename')
    .description('give a document a new title')
    .argument('<uuid>', "the document's uuid")
    .argument('<title>', 'the new title (trimmed; 1 to 200 characters)')
    .action(async (_uuid: string, _title: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, renameInput);
      const [{ openSignedInSession }, { withNotFound }, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('@planwright/sdk'),
      ]);
      const title = checkedTitle(input.title, sdk.validateDocumentTitle);
      const session = await openSignedInSession(io, input.server);
      const document = await withNotFound(
        () => session.call((client) => client.documents.update(input.uuid, { title })),
        sdk.DOCUMENT_TEXTS.notFound,
        LIST_HINT,
      );
      const { terminalText } = await import('../display/terminal-text.js');
      createOutput(io, input).result(document, () => `Renamed to "${terminalText(document.title)}".`);
    });

  documents
    .command('delete')
    .description('delete a document (asks first on a terminal)')
    .argument('<uuid>', "the document's uuid")
    .option('-y, --yes', 'delete without asking (needed when not on a terminal)')
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, deleteInput);
      // Settled before anything is sent: a script must never hang on a question nobody sees.
      const stdin = io.stdin;
      const canAsk = stdin?.isTTY === true && io.stderr.isTTY === true;
      if (!input.yes && !canAsk) {
        throw new UsageError('refusing to delete without confirmation: this is not a terminal', {
          suggestion: 'Pass --yes to delete without being asked.',
        });
      }
      const [{ openSignedInSession }, { withNotFound }, { terminalText }, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../display/terminal-text.js'),
        import('@planwright/sdk'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const notFound = <T>(run: () => Promise<T>) =>
        withNotFound(run, sdk.DOCUMENT_TEXTS.notFound, LIST_HINT);

      let title: string | undefined;
      if (input.yes) {
        await notFound(() => session.call((client) => client.documents.delete(input.uuid)));
      } else {
        const document = await notFound(() => session.call((client) => client.documents.get(input.uuid)));
        title = terminalText(sdk.documentTitle(document));
        const { confirm } = await import('../prompts/confirm.js');
        const question = `Delete "${title}" (${sdk.formatProgress(document.progress)} finalized)? This cannot be undone.`;
        // `canAsk` checked that stdin exists and is a terminal.
        if (!(stdin && (await confirm(question, stdin, io.stderr)))) {
          throw new CancelledError('not deleted');
        }
        // Deletes what was shown: if it changed meanwhile, the server refuses (412) and nothing is lost.
        const ifMatch = document.revision ?? undefined;
        await notFound(() => session.call((client) => client.documents.delete(input.uuid, { ifMatch })));
      }
      const report: DeleteReport = { uuid: input.uuid, deleted: true };
      createOutput(io, input).result(report, () =>
        title === undefined ? `Deleted document ${terminalText(input.uuid)}.` : `Deleted "${title}".`,
      );
    });
}

/** The title trimmed, or a usage error with the product's words (`Title cannot be empty`). */
function checkedTitle(title: string, validate: (title: string) => string | undefined): string {
  const problem = validate(title);
  if (problem !== undefined) throw new UsageError(`<title>: ${problem}`);
  return title.trim();
}
