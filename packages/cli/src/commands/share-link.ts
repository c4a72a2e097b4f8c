import type { shareLinkInputSchema } from '@planwright/sdk';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { NotFoundError, UsageError } from '../errors/cli-error.js';
import { commandPath, parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema } from '../options/workspace-options.js';
import { createOutput } from '../output.js';
import type { SignedInSession } from '../session/signed-in-call.js';

const globalInput = (z: Zod) => ({
  server: serverUrlSchema(z).optional(),
  json: z.boolean().default(false),
});

const listInput = (z: Zod) => z.object({ ...globalInput(z), uuid: identifierSchema(z, 'document') });

/**
 * The input of `planwright share-link create`. `--label` is checked by the SDK's own rule (what the server checks
 * too), handed in because `--help` must not load the SDK. `--expires` is read afterwards, against the clock
 * ({@link parseExpires}); the password never comes from the command line (`--password-stdin`).
 */
const createInput = (label: typeof shareLinkInputSchema.shape.label) => (z: Zod) =>
  z.object({
    ...globalInput(z),
    uuid: identifierSchema(z, 'document'),
    version: z.string().trim().min(1, "expected the version's name or id").optional(),
    expires: z.string().optional(),
    passwordStdin: z.boolean().default(false),
    allowDownload: z.boolean().default(false),
    label,
  });

const revokeInput = (z: Zod) =>
  z.object({
    ...globalInput(z),
    uuid: identifierSchema(z, 'document'),
    'id|url': z.string().trim().min(1, "expected the link's id or its URL"),
  });

const LIST_HINT = 'Run `planwright documents list` to see your documents.';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The last moment an ISO 8601 date with a four-digit year can name; later is not a date the server takes. */
const LAST_ISO_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|([+-])(\d{2}):?(\d{2}))?$/i;
const DAYS = /^(\d+)d$/i;

const EXPIRES_FORMS =
  'use a date (YYYY-MM-DD: through the end of that day, your time), a date and time with its offset (like 2026-12-31T18:00:00+01:00 or 2026-12-31T17:00:00Z), or a number of days (like 30d)';

/**
 * `--expires` as the moment the link stops working: `YYYY-MM-DD` is the end of that day in this computer's time
 * zone (the link works through the whole day), a date and time needs its offset (`Z`, `+01:00`), `<n>d` is n days
 * from `now`. A moment that is not after `now` is refused, as the server would refuse it.
 *
 * @throws UsageError naming what is wrong with it.
 */
export function parseExpires(text: string, now: Date, suggestion?: string): Date {
  const value = text.trim();
  // Quoted as typed: the error handler makes every message safe for the terminal.
  const shown = `"${value}"`;
  const refuse = (message: string) => new UsageError(`--expires: ${message}`, { suggestion });
  let expires: Date;
  const days = DAYS.exec(value);
  const date = DATE.exec(value);
  const dateTime = DATE_TIME.exec(value);
  if (days) {
    const count = Number(days[1]);
    if (count < 1) throw refuse(`${shown} would expire at once: give 1d or more`);
    if (count > (LAST_ISO_TIME - now.getTime()) / DAY_MS) throw refuse(`${shown} is too far away`);
    expires = new Date(now.getTime() + count * DAY_MS);
  } else if (date) {
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
    if (!isCalendarDay(year, month, day)) throw refuse(`${shown} is not a day of the calendar`);
    // The last millisecond of that day here, wherever the clocks change that day.
    expires = new Date(year, month - 1, day, 23, 59, 59, 999);
  } else if (dateTime) {
    const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((index) => Number(dateTime[index]));
    const second = Number(dateTime[6] ?? '0');
    const fraction = Number(`0.${dateTime[7] ?? '0'}`);
    const zone = dateTime[8];
    if (zone === undefined) {
      throw refuse(`${shown} has no time zone: add Z (UTC) or its offset, like +01:00`);
    }
    const offsetHours = Number(dateTime[10] ?? '0');
    const offsetMinutes = Number(dateTime[11] ?? '0');
    if (
      !isCalendarDay(year ?? 0, month ?? 0, day ?? 0) ||
      (hour ?? 0) > 23 ||
      (minute ?? 0) > 59 ||
      second > 59 ||
      offsetHours > 23 ||
      offsetMinutes > 59
    ) {
      throw refuse(`${shown} is not a real date and time`);
    }
    const offset = (dateTime[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
    const utc = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hour, minute, second);
    expires = new Date(utc + Math.floor(fraction * 1000) - offset * 60_000);
  } else {
    throw refuse(`${shown} is not a date: ${EXPIRES_FORMS}`);
  }
  if (Number.isNaN(expires.getTime()) || expires.getTime() > LAST_ISO_TIME) {
    throw refuse(`${shown} is too far away`);
  }
  if (expires.getTime() <= now.getTime()) {
    throw refuse(
      `${shown} is in the past: the link would expire before anyone reads it; choose a later date`,
    );
  }
  return expires;
}

/** Whether year, month (1–12) and day name a day of the calendar (no 30 February). */
function isCalendarDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * `planwright share-link create|list|revoke`: read-only links to a plan for people without an account
 * (docs/versions.md "Share links", `documents/{uuid}/share-links/`). Those who may invite people to the plan (its
 * owner; editors when the owner lets them) make, list and turn them off; anyone else gets the server's reason,
 * 404 `not_permitted`. `--json` prints the SDK's objects.
 */
export function registerShareLinkCommand(program: Command, io: CliIo): void {
  const shareLink = program
    .command('share-link')
    .description(
      'make, list and turn off read-only links to a document for people without an account (needs `planwright login`)',
    )
    .addHelpText(
      'after',
      `
A share link shows the plan's latest finalized subsections (as they are when it is read), or one version, to
anyone who has it: no account needed. It can expire, ask for a password and allow downloads (PDF, Word). Its URL
is shown once, when it is made; the list shows what each link shows and how often it was read.

Examples:
  url=$(planwright share-link create 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --expires 30d --allow-download)
  printf %s "$LINK_PASSWORD" | planwright share-link create 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --version "Sent to bank, v3" --password-stdin --label "Acme Ventures"
  planwright share-link list 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c
  planwright share-link revoke 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c "$url"`,
    );

  shareLink
    .command('create')
    .description('make a link and print its URL alone on standard output (the owner; editors when allowed)')
    .argument('<uuid>', "the document's uuid")
    .option(
      '--version <name|id>',
      "the version it shows, by name (any case) or id; else the plan's latest finalized subsections",
    )
    .option(
      '--expires <date>',
      'when it stops working: YYYY-MM-DD (through the end of that day, your time), a date and time with its offset (2026-12-31T18:00:00+01:00), or <n>d (n days from now); else never',
    )
    .option('--password-stdin', 'ask readers for a password, read from standard input (6 to 128 characters)')
    .option('--allow-download', 'let readers download it as PDF and Word')
    .option('--label <text>', 'who it is for, to tell links apart (at most 100 characters)')
    .addHelpText(
      'after',
      `
Standard output gets the URL alone, so \`url=$(planwright share-link create …)\` keeps it; with --json, the whole
link. Keep it: the server keeps only its hash, so it is never shown again. What the link shows is said on
standard error.

Examples:
  url=$(planwright share-link create 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --expires 30d --allow-download)
  printf %s "$LINK_PASSWORD" | planwright share-link create 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --password-stdin --expires 2026-12-31`,
    )
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const sdk = await import('@planwright/sdk');
      const input = await parseCommandInput(command, createInput(sdk.shareLinkInputSchema.shape.label));
      const hint = `Run \`${commandPath(command)} --help\` for usage.`;
      const expiresAt =
        input.expires === undefined ? undefined : parseExpires(input.expires, new Date(), hint);
      // A piped password is read before the server is asked, so whoever writes it is never left blocked.
      const password = input.passwordStdin ? await readLinkPassword(io, sdk.shareLinkInputSchema) : undefined;

      const [{ openSignedInSession }, { withNotFound }, { withVersionNotFound }] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('./versions.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const create = () =>
        session.call((client) =>
          client.shareLinks.create(input.uuid, {
            ...(input.version !== undefined && { version: input.version }),
            ...(input.label !== undefined && input.label !== '' && { label: input.label }),
            ...(expiresAt !== undefined && { expiresAt }),
            ...(password !== undefined && { password }),
            allowDownload: input.allowDownload,
          }),
        );
      // A 404 `not_permitted` (someone who may not share the plan) passes through with the server's reason; a
      // version the plan does not have is told from a plan the caller does not see.
      const link =
        input.version === undefined
          ? await withNotFound(create, sdk.DOCUMENT_TEXTS.notFound, LIST_HINT)
          : await withVersionNotFound(session, { uuid: input.uuid, version: input.version }, create);
      const [views, { terminalText }] = await Promise.all([
        import('../workspace/share-link-views.js'),
        import('../display/terminal-text.js'),
      ]);
      const output = createOutput(io, input);
      output.result(link, () => terminalText(link.url));
      if (!output.json) io.stderr.write(`${views.createdNote(link)}\n`);
    });

  shareLink
    .command('list')
    .description("list a document's share links, newest first, with how often each was read")
    .argument('<uuid>', "the document's uuid")
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, listInput);
      const [{ openSignedInSession }, { withNotFound }, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('@planwright/sdk'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const links = await withNotFound(
        () => session.call((client) => client.shareLinks.list(input.uuid)),
        sdk.DOCUMENT_TEXTS.notFound,
        LIST_HINT,
      );
      const { shareLinkListLines } = await import('../workspace/share-link-views.js');
      createOutput(io, input).result(links, () => shareLinkListLines(links, input.uuid));
    });

  shareLink
    .command('revoke')
    .description(
      'turn a link off at once: its page answers 410 Gone from then on (turning off one already off is fine)',
    )
    .argument('<uuid>', "the document's uuid")
    .argument('<id|url>', "the link's id (from `share-link list`) or its URL")
    .action(async (_uuid: string, _link: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, revokeInput);
      const { openSignedInSession } = await import('../session/signed-in-call.js');
      const session = await openSignedInSession(io, input.server);
      const link = await withLinkNotFound(session, input.uuid, input['id|url'], () =>
        session.call((client) => client.shareLinks.revoke(input.uuid, input['id|url'])),
      );
      const { revokedLine } = await import('../workspace/share-link-views.js');
      createOutput(io, input).result(link, () => revokedLine(link));
    });
}

const passwordSuggestion =
  'Pipe the password in, e.g. `printf %s "$LINK_PASSWORD" | planwright share-link create <uuid> --password-stdin`.';

/**
 * `--password-stdin`, read as `planwright login --password-stdin` reads it (`readPasswordFromStdin`: all of
 * standard input, one trailing newline removed, nothing else trimmed), then checked by the SDK's rule (6 to 128
 * characters). It must be one line: readers type it into a one-line field.
 *
 * @throws UsageError when standard input is a terminal (it would echo the password), missing, empty, more than
 *   one line, or not a password the link takes. The message never quotes it.
 */
async function readLinkPassword(io: CliIo, schema: typeof shareLinkInputSchema): Promise<string> {
  if (io.stdin?.isTTY === true) {
    throw new UsageError('--password-stdin reads a piped password, but standard input is a terminal', {
      suggestion: passwordSuggestion,
    });
  }
  const { readPasswordFromStdin } = await import('../login/read-password.js');
  const password = await readPasswordFromStdin(io.stdin).catch((error: unknown) => {
    // The same refusal, with how to pipe a link's password rather than a sign-in's.
    if (error instanceof UsageError)
      throw new UsageError(error.message, { suggestion: passwordSuggestion, cause: error });
    throw error;
  });
  if (/[\r\n]/.test(password)) {
    throw new UsageError(
      '--password-stdin: standard input holds more than one line; expected the password alone, on one line',
      { suggestion: passwordSuggestion },
    );
  }
  const checked = schema.shape.password.safeParse(password);
  if (!checked.success) {
    throw new UsageError(`--password-stdin: ${checked.error.issues[0]?.message ?? 'not a link password'}`, {
      suggestion: passwordSuggestion,
    });
  }
  return password;
}

/**
 * `run`, a call on one link, with its 404s said as the product says them. The server answers 404 `not_found` alike
 * for a plan the caller does not see and for a link the plan does not have: the plan's links are listed to tell
 * which. A 404 `not_permitted` passes through, so the server's reason is what gets printed.
 */
async function withLinkNotFound<T>(
  session: SignedInSession,
  uuid: string,
  link: string,
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
      () => session.call((client) => client.shareLinks.list(uuid)),
      sdk.DOCUMENT_TEXTS.notFound,
      LIST_HINT,
    );
    throw new NotFoundError(`Share link not found: “${link}”.`, {
      suggestion: `Run \`planwright share-link list ${uuid}\` to see the document's links.`,
      cause: error.cause,
    });
  }
}
