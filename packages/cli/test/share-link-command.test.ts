import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { CreatedShareLink, ShareLink } from '@planwright/sdk';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseExpires } from '../src/commands/share-link.js';
import { UsageError } from '../src/errors/cli-error.js';
import { sendJson, startJsonServer, type TestServer } from './support/http-server.js';
import { runCli, useTempDir } from './support/run-cli.js';

const PLAN = 'd0c00000-0000-4000-8000-000000000001';
const VIEWED = 'd0c00000-0000-4000-8000-000000000002';
const UNKNOWN = 'd0c00000-0000-4000-8000-0000000000ff';

const V_BANK = 'e0000000-0000-4000-8000-000000000003';
const V_HOURLY = 'e0000000-0000-4000-8000-000000000001';

const L_FINALIZED = 'f0000000-0000-4000-8000-000000000003';
const L_BANK = 'f0000000-0000-4000-8000-000000000002';
const L_HOURLY = 'f0000000-0000-4000-8000-000000000001';

const ORIGIN = 'https://plans.example.com';
const CREATOR = { username: 'ada', first_name: 'Ada', last_name: 'Lovelace' } as const;

type FakeVersion = NonNullable<ShareLink['version']>;

const VERSIONS: FakeVersion[] = [
  { id: V_BANK, name: 'Sent to bank, v3', kind: 'named', created_at: '2026-11-23T09:30:00.000Z' },
  { id: V_HOURLY, name: null, kind: 'hourly', created_at: '2026-11-22T10:05:00.000Z' },
];

/** A link as the fake keeps it: what the owner sees, and its token (the server keeps only a hash). */
type FakeLink = ShareLink & { token: string };

interface FakePlan {
  uuid: string;
  /** The caller's role: only those who may invite people (the owner here) make and see links. */
  role: 'owner' | 'viewer';
  versions: FakeVersion[];
  /** Newest first, as the server lists them. */
  links: FakeLink[];
}

interface SeenRequest {
  method: string;
  url: string;
  body: unknown;
}

interface FakeShareLinksServer extends TestServer {
  readonly seen: SeenRequest[];
  readonly plans: Map<string, FakePlan>;
  issueToken(): string;
}

const token = () => randomBytes(32).toString('base64url');

function link(id: string, extra: Partial<FakeLink>): FakeLink {
  return {
    id,
    label: '',
    token_hint: 'abcd',
    version: null,
    expires_at: null,
    has_password: false,
    allow_download: false,
    status: 'active',
    revoked_at: null,
    created_by: { ...CREATOR },
    created_at: '2026-11-24T08:00:00.000Z',
    views: { total: 0, unique_visitors: 0, last_viewed_at: null, sections: [] },
    token: token(),
    ...extra,
  };
}

/** A link as lists answer it: without its token. */
function shown({ token: _token, ...answer }: FakeLink): ShareLink {
  return answer;
}

/** Newest first: the latest finalized for a fund, a named version behind a password (expired), an hourly one (off). */
const LINKS: FakeLink[] = [
  link(L_FINALIZED, {
    label: 'Acme Ventures',
    allow_download: true,
    created_at: '2026-11-28T08:00:00.000Z',
    views: {
      total: 12,
      unique_visitors: 3,
      last_viewed_at: '2026-11-28T17:45:10.000Z',
      sections: [{ uuid: randomUUID(), title: 'Market', seconds: 95 }],
    },
  }),
  link(L_BANK, {
    version: VERSIONS[0] ?? null,
    expires_at: '2026-11-26T22:59:59.999Z',
    has_password: true,
    status: 'expired',
    created_at: '2026-11-25T08:00:00.000Z',
  }),
  link(L_HOURLY, {
    label: 'Bank',
    version: VERSIONS[1] ?? null,
    status: 'revoked',
    revoked_at: '2026-11-25T09:00:00.000Z',
    views: { total: 1, unique_visitors: 1, last_viewed_at: '2026-11-24T09:00:00.000Z', sections: [] },
  }),
];

/**
 * The share-links calls of docs/http-api.md the CLI uses, over in-memory plans: 401 without a live token, 404
 * `not_found` for an unknown plan, version or link, 404 `not_permitted` for a caller who may not share the plan,
 * 400 for a date not in the future, `POST …/find/` by URL, `DELETE` that turns a link off (again too, 204), and
 * `GET …/versions/` (one page) for telling a missing version from a missing plan.
 */
async function startFakeShareLinksServer(initial: FakePlan[]): Promise<FakeShareLinksServer> {
  const plans = new Map(initial.map((plan) => [plan.uuid, plan]));
  const tokens = new Set<string>();
  const seen: SeenRequest[] = [];

  const handle = (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? '';
    seen.push({ method, url: request.url ?? '', body });
    const session = request.headers['x-session-token'];
    if (typeof session !== 'string' || !tokens.has(session)) {
      return sendJson(response, 401, {
        detail: 'Authentication credentials were not provided.',
        code: 'not_authenticated',
      });
    }
    const notFound = (detail: string) => sendJson(response, 404, { detail, code: 'not_found' });
    const versions = /^\/api\/v1\/documents\/([^/]+)\/versions\/$/.exec(url.pathname);
    if (versions && method === 'GET') {
      const plan = plans.get(versions[1] ?? '');
      if (!plan) return notFound('Document not found.');
      const size = Number(url.searchParams.get('page_size') ?? '20');
      return sendJson(response, 200, {
        data: plan.versions.slice(0, size).map((version) => ({
          ...version,
          title: 'Bakery plan',
          revision: 3,
          progress: { finalized: 1, total: 32 },
          created_by: { ...CREATOR },
        })),
        meta: { pagination: { total: plan.versions.length, page: 1, page_size: size } },
      });
    }
    const match = /^\/api\/v1\/documents\/([^/]+)\/share-links\/(?:([^/]+)\/)?$/.exec(url.pathname);
    const plan = match ? plans.get(match[1] ?? '') : undefined;
    if (!match || !plan) return notFound('Document not found.');
    if (plan.role !== 'owner') {
      return sendJson(response, 404, {
        detail: 'Only those who may invite people to this document can share it with a link.',
        code: 'not_permitted',
      });
    }
    const wanted = match[2];
    if (wanted === undefined && method === 'GET') {
      return sendJson(response, 200, { data: plan.links.map(shown) });
    }
    if (wanted === undefined && method === 'POST') {
      const input = body as {
        version: string | null;
        label?: string;
        expires_at: string | null;
        password: string | null;
        allow_download: boolean;
      };
      if (input.expires_at !== null && Date.parse(input.expires_at) <= Date.now()) {
        return sendJson(response, 400, {
          detail: 'The link would expire before anyone reads it: choose a later date.',
          code: 'invalid',
          errors: [{ message: 'Choose a date in the future', code: 'invalid', param: 'expires_at' }],
        });
      }
      const version =
        input.version === null
          ? null
          : plan.versions.find(
              (candidate) =>
                candidate.id === input.version?.toLowerCase() ||
                candidate.name?.toLowerCase() === input.version?.toLowerCase(),
            );
      if (version === undefined) {
        return notFound('Version not found: it was never kept, or was removed after its retention.');
      }
      const made = link(randomUUID(), {
        label: input.label ?? '',
        version,
        expires_at: input.expires_at,
        has_password: input.password !== null,
        allow_download: input.allow_download,
        created_at: new Date().toISOString(),
      });
      made.token_hint = made.token.slice(0, 4);
      plan.links.unshift(made);
      return sendJson(response, 201, { ...shown(made), url: `${ORIGIN}/s/${made.token}` });
    }
    const found =
      wanted === 'find' && method === 'POST'
        ? plan.links.find((candidate) =>
            String((body as { url?: unknown }).url).endsWith(`/s/${candidate.token}`),
          )
        : plan.links.find((candidate) => candidate.id === wanted);
    if (!found) return notFound('Share link not found.');
    if (method === 'DELETE') {
      found.revoked_at ??= new Date().toISOString();
      found.status = 'revoked';
      response.writeHead(204).end();
      return;
    }
    sendJson(response, 200, shown(found));
  };

  const server = await startJsonServer(handle);
  return {
    ...server,
    seen,
    plans,
    issueToken() {
      const issued = `token-${randomUUID()}`;
      tokens.add(issued);
      return issued;
    },
  };
}

/** The time zone the tests pretend this computer is in (UTC+9 all year): "the end of the day" is 14:59:59 UTC. */
const TIME_ZONE = 'Asia/Tokyo';
let savedTimeZone: string | undefined;
beforeAll(() => {
  savedTimeZone = process.env.TZ;
  process.env.TZ = TIME_ZONE;
});
afterAll(() => {
  if (savedTimeZone === undefined) delete process.env.TZ;
  else process.env.TZ = savedTimeZone;
});

describe('parseExpires', () => {
  const now = new Date('2026-11-29T10:00:00.000Z');
  const refusal = (text: string, at = now) => {
    try {
      parseExpires(text, at);
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as UsageError).message;
    }
    throw new Error(`--expires ${text} was taken`);
  };

  it('takes a date as the end of that day where the computer is, so the link works through the whole day', () => {
    expect(new Date(2026, 0, 1).getTimezoneOffset()).toBe(-540);
    expect(parseExpires('2026-12-31', now).toISOString()).toBe('2026-12-31T14:59:59.999Z');
    // Today (in Tokyo it is 19:00 on the 29th) is still to come, the day before is not.
    expect(parseExpires('2026-11-29', now).toISOString()).toBe('2026-11-29T14:59:59.999Z');
    expect(refusal('2026-11-28')).toBe(
      '--expires: "2026-11-28" is in the past: the link would expire before anyone reads it; choose a later date',
    );
    // Leap days are days; 30 February is not.
    expect(parseExpires('2028-02-29', now).toISOString()).toBe('2028-02-29T14:59:59.999Z');
    expect(refusal('2027-02-29')).toBe('--expires: "2027-02-29" is not a day of the calendar');
    expect(refusal('2026-13-01')).toBe('--expires: "2026-13-01" is not a day of the calendar');
  });

  it('takes the end of the day in the zone the computer is in, whichever it is, summer time too', () => {
    process.env.TZ = 'America/New_York';
    try {
      expect(parseExpires('2026-12-31', now).toISOString()).toBe('2027-01-01T04:59:59.999Z');
      expect(parseExpires('2027-07-04', now).toISOString()).toBe('2027-07-05T03:59:59.999Z');
      // 14 March 2027 is 23 hours long there: its end is still 23:59:59.999 local time.
      expect(parseExpires('2027-03-14', now).toISOString()).toBe('2027-03-15T03:59:59.999Z');
    } finally {
      process.env.TZ = TIME_ZONE;
    }
  });

  it('takes a date and time with its offset, or Z', () => {
    expect(parseExpires('2026-12-31T18:00:00+01:00', now).toISOString()).toBe('2026-12-31T17:00:00.000Z');
    expect(parseExpires('2026-12-31T18:00:00.250-0530', now).toISOString()).toBe('2026-12-31T23:30:00.250Z');
    expect(parseExpires('2026-12-31T17:00Z', now).toISOString()).toBe('2026-12-31T17:00:00.000Z');
    expect(parseExpires(' 2026-11-29T10:00:01Z ', now).toISOString()).toBe('2026-11-29T10:00:01.000Z');
    expect(refusal('2026-11-29T10:00:00Z')).toMatch(/^--expires: "2026-11-29T10:00:00Z" is in the past/);
    expect(refusal('2026-12-31T18:00:00')).toBe(
      '--expires: "2026-12-31T18:00:00" has no time zone: add Z (UTC) or its offset, like +01:00',
    );
    expect(refusal('2026-12-31T24:00:00Z')).toBe(
      '--expires: "2026-12-31T24:00:00Z" is not a real date and time',
    );
    expect(refusal('2026-02-30T10:00:00Z')).toBe(
      '--expires: "2026-02-30T10:00:00Z" is not a real date and time',
    );
  });

  it('takes <n>d as n days from now', () => {
    expect(parseExpires('30d', now).toISOString()).toBe('2026-12-29T10:00:00.000Z');
    expect(parseExpires('1d', now).toISOString()).toBe('2026-11-30T10:00:00.000Z');
    expect(refusal('0d')).toBe('--expires: "0d" would expire at once: give 1d or more');
    expect(refusal('99999999999d')).toBe('--expires: "99999999999d" is too far away');
  });

  it('refuses anything else, saying what it takes', () => {
    for (const text of [
      'tomorrow',
      '30',
      '30 days',
      '-1d',
      '1.5d',
      '31/12/2026',
      '',
      'Dec 31 2026',
      '2026-12-31 18:00Z',
    ]) {
      expect(refusal(text)).toBe(
        `--expires: "${text.trim()}" is not a date: use a date (YYYY-MM-DD: through the end of that day, your time), a date and time with its offset (like 2026-12-31T18:00:00+01:00 or 2026-12-31T17:00:00Z), or a number of days (like 30d)`,
      );
    }
  });
});

describe('planwright share-link', () => {
  const dir = useTempDir();
  let server: FakeShareLinksServer;
  beforeEach(async () => {
    server = await startFakeShareLinksServer([
      { uuid: PLAN, role: 'owner', versions: structuredClone(VERSIONS), links: structuredClone(LINKS) },
      { uuid: VIEWED, role: 'viewer', versions: structuredClone(VERSIONS), links: [] },
    ]);
    await writeFile(
      join(dir.path, 'session.json'),
      JSON.stringify({
        sessions: { [server.url]: { token: server.issueToken(), email: 'ada@example.com' } },
      }),
    );
  });
  afterEach(async () => {
    vi.useRealTimers();
    await server.close();
  });

  const cli = (args: string[], stdin?: string, tty?: boolean) =>
    runCli(
      ['share-link', ...args],
      { PLANWRIGHT_CONFIG_DIR: dir.path, PLANWRIGHT_SERVER: server.url },
      { ...(stdin === undefined ? {} : { stdin }), ...(tty === undefined ? {} : { tty }) },
    );
  const urls = () => server.seen.map((request) => `${request.method} ${request.url}`);
  const plan = () => {
    const found = server.plans.get(PLAN);
    if (!found) throw new Error('the plan is set up');
    return found;
  };
  const newest = () => {
    const made = plan().links[0];
    if (!made || made.id === L_FINALIZED) throw new Error('a link was made');
    return made;
  };
  const createdBody = () => server.seen.find((request) => request.method === 'POST')?.body;

  describe('create', () => {
    it('prints the URL alone on stdout, and what it shows on stderr; by default the latest finalized', async () => {
      const created = await cli(['create', PLAN]);
      const made = newest();
      expect(created).toEqual({
        exitCode: 0,
        stdout: `${ORIGIN}/s/${made.token}\n`,
        stderr:
          'Link to the latest finalized subsections; anyone with it can read them. It is shown only now: keep it.\n',
      });
      expect(server.seen).toEqual([
        {
          method: 'POST',
          url: `/api/v1/documents/${PLAN}/share-links/`,
          body: { version: null, expires_at: null, password: null, allow_download: false },
        },
      ]);
      expect(made).toMatchObject({ version: null, has_password: false, allow_download: false, label: '' });
    });

    it('prints the whole CreatedShareLink with --json, and nothing on stderr', async () => {
      const created = await cli(['create', PLAN, '--allow-download', '--label', 'Acme Ventures', '--json']);
      expect(created).toMatchObject({ exitCode: 0, stderr: '' });
      const made = newest();
      const answer = JSON.parse(created.stdout) as CreatedShareLink;
      expect(answer).toEqual({ ...shown(made), url: `${ORIGIN}/s/${made.token}` });
      expect(answer).toMatchObject({ label: 'Acme Ventures', allow_download: true, version: null });
    });

    it('shows a version named by --version, by name in any case or by id', async () => {
      const byName = await cli(['create', PLAN, '--version', ' sent to BANK, v3 ', '--allow-download']);
      expect(byName).toEqual({
        exitCode: 0,
        stdout: `${ORIGIN}/s/${newest().token}\n`,
        stderr:
          'Link to version “Sent to bank, v3”; anyone with it can read it and download it as PDF and Word. It is shown only now: keep it.\n',
      });
      expect(createdBody()).toEqual({
        version: 'sent to BANK, v3',
        expires_at: null,
        password: null,
        allow_download: true,
      });
      expect(newest().version).toEqual(VERSIONS[0]);

      const byId = await cli(['create', PLAN, '--version', V_HOURLY]);
      expect(byId).toMatchObject({ exitCode: 0 });
      expect(byId.stderr).toBe(
        'Link to the hourly version of 2026-11-22 10:05 UTC; anyone with it can read it. It is shown only now: keep it.\n',
      );
      expect(newest().version).toEqual(VERSIONS[1]);
    });

    it('says which is missing, the version or the document, and makes nothing', async () => {
      expect(await cli(['create', PLAN, '--version', 'v9'])).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: `planwright: Version not found: “v9”.\nRun \`planwright versions list ${PLAN}\` to see the document's versions.\n`,
      });
      expect(await cli(['create', UNKNOWN, '--version', 'v9'])).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
      });
      expect(await cli(['create', UNKNOWN])).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
      });
      expect(plan().links).toHaveLength(3);
    });

    it('prints the server’s reason when the caller may not share the plan, exit 1', async () => {
      expect(await cli(['create', VIEWED])).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'planwright: Only those who may invite people to this document can share it with a link.\n',
      });
    });

    describe('--expires', () => {
      // 2026-11-29 19:00 in Tokyo; only Date is faked (no timers wait on it), and the fake server reads it too.
      const NOW = new Date('2026-11-29T10:00:00.000Z');
      beforeEach(() => {
        vi.useFakeTimers({ toFake: ['Date'], now: NOW });
      });

      it('takes a date as the end of that day in this computer’s time zone', async () => {
        const created = await cli(['create', PLAN, '--expires', '2026-12-31']);
        expect(created).toEqual({
          exitCode: 0,
          stdout: `${ORIGIN}/s/${newest().token}\n`,
          stderr:
            'Link to the latest finalized subsections, until 2026-12-31 14:59 UTC; anyone with it can read them. It is shown only now: keep it.\n',
        });
        expect(createdBody()).toMatchObject({ expires_at: '2026-12-31T14:59:59.999Z' });
        // Today works: the link is good until midnight here.
        expect(await cli(['create', PLAN, '--expires', '2026-11-29'])).toMatchObject({ exitCode: 0 });
        expect(newest().expires_at).toBe('2026-11-29T14:59:59.999Z');
      });

      it('takes <n>d as n days from now, and a date and time with its offset', async () => {
        expect(await cli(['create', PLAN, '--expires', '30d'])).toMatchObject({
          exitCode: 0,
          stderr: expect.any(String),
        });
        expect(newest().expires_at).toBe('2026-12-29T10:00:00.000Z');
        expect(await cli(['create', PLAN, '--expires', '2027-01-15T09:30:00-05:00'])).toMatchObject({
          exitCode: 0,
        });
        expect(newest().expires_at).toBe('2027-01-15T14:30:00.000Z');
      });

      it('refuses a date in the past before asking the server, exit 2', async () => {
        expect(await cli(['create', PLAN, '--expires', '2026-11-28'])).toEqual({
          exitCode: 2,
          stdout: '',
          stderr:
            'planwright: --expires: "2026-11-28" is in the past: the link would expire before anyone reads it; choose a later date\nRun `planwright share-link create --help` for usage.\n',
        });
        expect((await cli(['create', PLAN, '--expires', '2026-11-29T09:59:59Z'])).stderr).toMatch(
          /^planwright: --expires: "2026-11-29T09:59:59Z" is in the past/,
        );
        expect(server.seen).toEqual([]);
      });

      it('refuses what is not a date, saying what it takes, exit 2', async () => {
        for (const text of ['next week', '2026-12-31 18:00', '2026-12-31T18:00', '0d', '2026-04-31']) {
          const refused = await cli(['create', PLAN, '--expires', text]);
          expect(refused, text).toMatchObject({ exitCode: 2, stdout: '' });
          expect(refused.stderr, text).toMatch(/^planwright: --expires: ".*" (is not|has no|would expire)/);
        }
        expect((await cli(['create', PLAN, '--expires', 'next week'])).stderr).toContain(
          'use a date (YYYY-MM-DD: through the end of that day, your time)',
        );
        // What was typed is echoed made safe for the terminal.
        expect((await cli(['create', PLAN, '--expires', '\u001b[2Jsoon\u202e'])).stderr).toMatch(
          /^planwright: --expires: "soon" is not a date: /,
        );
        expect(server.seen).toEqual([]);
      });
    });

    describe('--password-stdin', () => {
      it('reads the password from standard input, one trailing newline removed, nothing else trimmed', async () => {
        const created = await cli(['create', PLAN, '--password-stdin'], '  open sesame \r\n');
        expect(created).toEqual({
          exitCode: 0,
          stdout: `${ORIGIN}/s/${newest().token}\n`,
          stderr:
            'Link to the latest finalized subsections; anyone with it and its password can read them. It is shown only now: keep it.\n',
        });
        expect(createdBody()).toMatchObject({ password: '  open sesame ' });
        expect(newest().has_password).toBe(true);
        // Nothing of it is printed.
        expect(`${created.stdout}${created.stderr}`).not.toContain('sesame');
      });

      it('takes it from a stream piped in chunks, as `printf %s "$PW" |` writes it', async () => {
        const stdin = Readable.from([Buffer.from('correct '), Buffer.from('horse')]);
        const created = await runCli(
          ['share-link', 'create', PLAN, '--password-stdin', '--json'],
          { PLANWRIGHT_CONFIG_DIR: dir.path, PLANWRIGHT_SERVER: server.url },
          { stdin },
        );
        expect(created).toMatchObject({ exitCode: 0, stderr: '' });
        expect(createdBody()).toMatchObject({ password: 'correct horse' });
        expect(JSON.parse(created.stdout)).toMatchObject({ has_password: true });
      });

      it('refuses a password the link does not take, or none, before asking the server, exit 2', async () => {
        const hint =
          'Pipe the password in, e.g. `printf %s "$LINK_PASSWORD" | planwright share-link create <uuid> --password-stdin`.\n';
        expect(await cli(['create', PLAN, '--password-stdin'], 'short\n')).toEqual({
          exitCode: 2,
          stdout: '',
          stderr: `planwright: --password-stdin: A link password must be at least 6 characters\n${hint}`,
        });
        expect((await cli(['create', PLAN, '--password-stdin'], 'x'.repeat(129))).stderr).toBe(
          `planwright: --password-stdin: A link password must be at most 128 characters\n${hint}`,
        );
        expect(await cli(['create', PLAN, '--password-stdin'], '')).toEqual({
          exitCode: 2,
          stdout: '',
          stderr: `planwright: --password-stdin: standard input was empty; expected the password\n${hint}`,
        });
        expect(await cli(['create', PLAN, '--password-stdin'], 'first line\nsecond line\n')).toEqual({
          exitCode: 2,
          stdout: '',
          stderr: `planwright: --password-stdin: standard input holds more than one line; expected the password alone, on one line\n${hint}`,
        });
        expect(await cli(['create', PLAN, '--password-stdin'])).toMatchObject({
          exitCode: 2,
          stderr: `planwright: --password-stdin: there is no standard input to read\n${hint}`,
        });
        expect(await cli(['create', PLAN, '--password-stdin'], 'open sesame', true)).toEqual({
          exitCode: 2,
          stdout: '',
          stderr: `planwright: --password-stdin reads a piped password, but standard input is a terminal\n${hint}`,
        });
        expect(server.seen).toEqual([]);
      });

      it('never takes a password on the command line', async () => {
        expect(await cli(['create', PLAN, '--password', 'open sesame'])).toMatchObject({
          exitCode: 2,
          stdout: '',
          stderr: expect.stringMatching(/^planwright: unknown option '--password'/),
        });
        expect(await cli(['create', PLAN, '--password-stdin', 'open sesame'], 'open sesame')).toMatchObject({
          exitCode: 2,
          stdout: '',
          stderr: expect.stringMatching(/^planwright: too many arguments for 'create'/),
        });
        expect(server.seen).toEqual([]);
      });
    });

    it('refuses a bad label or uuid before asking the server, exit 2', async () => {
      expect(await cli(['create', PLAN, '--label', 'x'.repeat(101)])).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          'planwright: --label: Label must be at most 100 characters\nRun `planwright share-link create --help` for usage.\n',
      });
      expect((await cli(['create', PLAN, '--version', ' '])).stderr).toMatch(
        /^planwright: --version: expected the version's name or id\n/,
      );
      expect((await cli(['create', 'acme'])).stderr).toMatch(
        /^planwright: <uuid>: "acme" is not a document uuid/,
      );
      expect(server.seen).toEqual([]);
    });
  });

  describe('list', () => {
    it('prints a table, newest first: what each shows, its state and its readers', async () => {
      expect(await cli(['list', PLAN])).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: [
          'ID                                    LABEL          SHOWS                                   STATUS   EXPIRES               PASSWORD  DOWNLOAD  VIEWS  VISITORS  LAST VIEWED',
          `${L_FINALIZED}  Acme Ventures  latest finalized                        active   never                 no        yes       12     3         2026-11-28 17:45 UTC`,
          `${L_BANK}  -              Sent to bank, v3                        expired  2026-11-26 22:59 UTC  yes       no        0      0         -`,
          `${L_HOURLY}  Bank           hourly version of 2026-11-22 10:05 UTC  revoked  never                 no        no        1      1         2026-11-24 09:00 UTC`,
          '',
        ].join('\n'),
      });
      expect(urls()).toEqual([`GET /api/v1/documents/${PLAN}/share-links/`]);
    });

    it('prints the array of ShareLink with --json', async () => {
      const listed = await cli(['list', PLAN, '--json']);
      expect(listed).toMatchObject({ exitCode: 0, stderr: '' });
      expect(JSON.parse(listed.stdout)).toEqual(LINKS.map(shown));
    });

    it('says how to make the first one when there are none', async () => {
      plan().links = [];
      expect(await cli(['list', PLAN])).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: [
          'No share links yet.',
          `Make one with \`planwright share-link create ${PLAN}\`: anyone with it reads the plan's finalized subsections (or a version, with --version), no account needed.`,
          '',
        ].join('\n'),
      });
      expect(JSON.parse((await cli(['list', PLAN, '--json'])).stdout)).toEqual([]);
    });

    it('makes labels and names from other people safe for the terminal', async () => {
      plan().links = [
        link(L_BANK, {
          label: 'Acme\u001b[2J\u202e',
          version: {
            ...VERSIONS[0],
            id: V_BANK,
            kind: 'named',
            created_at: '2026-11-23T09:30:00.000Z',
            name: 'v\u001b]8;;x\u00073',
          },
        }),
      ];
      const { stdout } = await cli(['list', PLAN]);
      expect(stdout).not.toMatch(/(?!\n)[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
      expect(stdout).toContain(`${L_BANK}  Acme   v3     active`);
    });

    it('says the document is not found, or prints the server’s reason for one the caller may not share', async () => {
      expect(await cli(['list', UNKNOWN])).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
      });
      expect(await cli(['list', VIEWED])).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'planwright: Only those who may invite people to this document can share it with a link.\n',
      });
    });
  });

  describe('revoke', () => {
    it('turns a link off by its id', async () => {
      expect(await cli(['revoke', PLAN, L_FINALIZED])).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: `Turned off the link ${L_FINALIZED}: it now answers 410 Gone.\n`,
      });
      expect(plan().links[0]).toMatchObject({
        id: L_FINALIZED,
        status: 'revoked',
        revoked_at: expect.any(String),
      });
      expect(urls()).toEqual([
        `GET /api/v1/documents/${PLAN}/share-links/${L_FINALIZED}/`,
        `DELETE /api/v1/documents/${PLAN}/share-links/${L_FINALIZED}/`,
        `GET /api/v1/documents/${PLAN}/share-links/${L_FINALIZED}/`,
      ]);
    });

    it('turns a link off by its URL, as create printed it', async () => {
      const { stdout } = await cli(['create', PLAN]);
      const url = stdout.trim();
      const made = newest();
      server.seen.length = 0;
      expect(await cli(['revoke', PLAN, url])).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: `Turned off the link ${made.id}: it now answers 410 Gone.\n`,
      });
      expect(made.status).toBe('revoked');
      expect(server.seen[0]).toEqual({
        method: 'POST',
        url: `/api/v1/documents/${PLAN}/share-links/find/`,
        body: { url },
      });
      expect(urls().slice(1)).toEqual([
        `DELETE /api/v1/documents/${PLAN}/share-links/${made.id}/`,
        `GET /api/v1/documents/${PLAN}/share-links/${made.id}/`,
      ]);
      // The other links stay on.
      expect(plan().links.find((other) => other.id === L_FINALIZED)?.status).toBe('active');
    });

    it('succeeds for a link already off, and prints the ShareLink with --json', async () => {
      const revoked = await cli(['revoke', PLAN, L_HOURLY, '--json']);
      expect(revoked).toMatchObject({ exitCode: 0, stderr: '' });
      expect(JSON.parse(revoked.stdout)).toEqual({
        ...shown(LINKS[2] as FakeLink),
        status: 'revoked',
        revoked_at: '2026-11-25T09:00:00.000Z',
      });
      expect((await cli(['revoke', PLAN, L_HOURLY])).stdout).toBe(
        `Turned off the link ${L_HOURLY}: it now answers 410 Gone.\n`,
      );
    });

    it('says which is missing, the link or the document', async () => {
      const other = 'f0000000-0000-4000-8000-0000000000ff';
      expect(await cli(['revoke', PLAN, other])).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: `planwright: Share link not found: “${other}”.\nRun \`planwright share-link list ${PLAN}\` to see the document's links.\n`,
      });
      const stranger = `${ORIGIN}/s/${token()}`;
      expect((await cli(['revoke', PLAN, stranger])).stderr).toBe(
        `planwright: Share link not found: “${stranger}”.\nRun \`planwright share-link list ${PLAN}\` to see the document's links.\n`,
      );
      expect(await cli(['revoke', UNKNOWN, L_FINALIZED])).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
      });
      expect(plan().links.filter((item) => item.status === 'active')).toHaveLength(1);
    });

    it('refuses a blank link before asking the server, exit 2', async () => {
      expect(await cli(['revoke', PLAN, ' '])).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          "planwright: <id|url>: expected the link's id or its URL\nRun `planwright share-link revoke --help` for usage.\n",
      });
      expect(server.seen).toEqual([]);
    });
  });

  it('asks nothing of the server when signed out, exit 3', async () => {
    await writeFile(join(dir.path, 'session.json'), JSON.stringify({ sessions: {} }));
    for (const [args, stdin] of [
      [['create', PLAN], undefined],
      [['create', PLAN, '--password-stdin'], 'open sesame'],
      [['list', PLAN], undefined],
      [['revoke', PLAN, L_FINALIZED], undefined],
    ] as const) {
      expect(await cli([...args], stdin)).toMatchObject({ exitCode: 3, stdout: '' });
    }
    expect(server.seen).toEqual([]);
  });

  it('is in the program’s help, with its subcommands and flags in its own', async () => {
    expect((await runCli(['--help'])).stdout).toContain('share-link');
    const help = await runCli(['share-link', '--help']);
    expect(help).toMatchObject({ exitCode: 0, stderr: '' });
    for (const text of ['create [options] <uuid>', 'list <uuid>', 'revoke <uuid> <id|url>']) {
      expect(help.stdout).toContain(text);
    }
    const create = await runCli(['share-link', 'create', '--help']);
    for (const flag of [
      '--version <name|id>',
      '--expires <date>',
      '--password-stdin',
      '--allow-download',
      '--label <text>',
    ]) {
      expect(create.stdout).toContain(flag);
    }
  });
});
