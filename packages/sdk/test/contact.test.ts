import {
  ApiError,
  type ContactMessageInput,
  contactMessageSchema,
  createPlanwrightClient,
  InvalidInputError,
  MemoryTokenStore,
} from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { readCorpusFile } from './support/corpus.js';
import { reply, useRecordingServer } from './support/recording-server.js';

const valid = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0000',
  message: 'I would like a demo.\n\nThanks!',
} satisfies ContactMessageInput;

function issuesOf(input: unknown): Array<{ field: string; message: string }> {
  const result = contactMessageSchema.safeParse(input);
  return (result.error?.issues ?? []).map((issue) => ({
    field: issue.path.join('.'),
    message: issue.message,
  }));
}

describe('contactMessageSchema', () => {
  it('accepts a valid message and trims every field', () => {
    const parsed = contactMessageSchema.parse({
      first_name: '  Ada ',
      last_name: '\tLovelace\n',
      email: ' ada@example.com ',
      phone: ' 123 ',
      message: '\n Hello \n',
    });
    expect(parsed).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      phone: '123',
      message: 'Hello',
    });
  });

  it("treats phone as optional: absent, null or '' all become ''", () => {
    const { phone: _phone, ...withoutPhone } = valid;
    expect(contactMessageSchema.parse(withoutPhone).phone).toBe('');
    expect(contactMessageSchema.parse({ ...valid, phone: null }).phone).toBe('');
    expect(contactMessageSchema.parse({ ...valid, phone: '   ' }).phone).toBe('');
  });

  it('names each missing or blank required field', () => {
    expect(issuesOf({})).toEqual([
      { field: 'first_name', message: 'First name is required' },
      { field: 'last_name', message: 'Last name is required' },
      { field: 'email', message: 'Email is required' },
      { field: 'message', message: 'Message is required' },
    ]);
    expect(issuesOf({ ...valid, first_name: '   ', message: ' \n\t ' }).map((i) => i.field)).toEqual([
      'first_name',
      'message',
    ]);
    expect(issuesOf({ ...valid, last_name: 42 })).toEqual([
      { field: 'last_name', message: 'Last name must be text' },
    ]);
  });

  it.each([
    ['first_name', 150],
    ['last_name', 150],
    ['phone', 50],
    ['message', 10_000],
  ] as const)('limits %s to %i characters (code points) after trimming', (field, max) => {
    expect(issuesOf({ ...valid, [field]: `  ${'x'.repeat(max)}  ` })).toEqual([]);
    expect(issuesOf({ ...valid, [field]: 'x'.repeat(max + 1) }).map((i) => i.field)).toEqual([field]);
    // An emoji outside the BMP is one character, though two UTF-16 units.
    expect(issuesOf({ ...valid, [field]: '😀'.repeat(max) })).toEqual([]);
    expect(issuesOf({ ...valid, [field]: '😀'.repeat(max + 1) }).map((i) => i.field)).toEqual([field]);
  });

  it('limits the e-mail address to 254 characters', () => {
    const at254 = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(at254).toHaveLength(254);
    expect(issuesOf({ ...valid, email: at254 })).toEqual([]);
    expect(issuesOf({ ...valid, email: `${at254.slice(0, -2)}dd.io` }).map((i) => i.field)).toEqual([
      'email',
    ]);
  });

  it.each([
    'plainaddress',
    'a@b',
    '@example.com',
    'ada@',
    'ada lovelace@example.com',
    'ada@exa mple.com',
    'a@b@c.io',
  ])('rejects %j as an e-mail address', (email) => {
    expect(issuesOf({ ...valid, email })).toEqual([
      { field: 'email', message: 'Please enter a valid email address' },
    ]);
  });

  it.each(['ada@example.com', 'first.last+tag@sub.example.co.uk', "o'brien@example.ie"])(
    'accepts %j',
    (email) => {
      expect(issuesOf({ ...valid, email })).toEqual([]);
    },
  );

  it('refuses control characters and lone surrogates, allows line breaks and tabs in the message', () => {
    for (const [field, value] of [
      ['first_name', 'Ada\u0000'],
      ['last_name', 'Love\nlace'],
      ['phone', '12\u00073'],
      ['message', 'Hello\u0000world'],
      ['message', 'broken \ud800 pair'],
      ['message', 'next line\u0085'],
    ] as const) {
      expect(issuesOf({ ...valid, [field]: value }), `${field}=${JSON.stringify(value)}`).toEqual([
        { field, message: 'Must not contain control characters' },
      ]);
    }
    expect(issuesOf({ ...valid, message: 'a\tb\r\nc\nd' })).toEqual([]);
    expect(issuesOf({ ...valid, first_name: '👩‍👩‍👧 زهرا‌ی', message: '<script>alert(1)</script>' })).toEqual(
      [],
    );
  });
});

describe('contactMessageSchema against the Big List of Naughty Strings', () => {
  const hostile = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];

  /** Written out by code point, independent of the schema's regular expressions. */
  function hasForbiddenCharacter(value: string, allowLineBreaks: boolean): boolean {
    for (let i = 0; i < value.length; i++) {
      const unit = value.charCodeAt(i);
      if (allowLineBreaks && (unit === 0x09 || unit === 0x0a || unit === 0x0d)) continue;
      if (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f)) return true;
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const next = value.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) i++;
        else return true;
      } else if (unit >= 0xdc00 && unit <= 0xdfff) {
        return true;
      }
    }
    return false;
  }

  // [field, maximum length, line breaks allowed, share of the list that must go through]
  const fields = [
    ['first_name', 150, false, 0.9],
    ['last_name', 150, false, 0.9],
    ['phone', 50, false, 0.6],
    ['message', 10_000, true, 0.95],
  ] as const;

  it('has the corpus', () => {
    expect(hostile.length).toBeGreaterThan(500);
  });

  it.each(fields)(
    '%s: keeps each string exactly (trimmed) or refuses it for a stated reason',
    (field, max, lines, share) => {
      let accepted = 0;
      for (const value of hostile) {
        const result = contactMessageSchema.safeParse({ ...valid, [field]: value });
        const trimmed = value.trim();
        const blankAllowed = field === 'phone';
        const shouldRefuse =
          (trimmed === '' && !blankAllowed) ||
          [...trimmed].length > max ||
          hasForbiddenCharacter(trimmed, lines);
        const label = `${field}=${JSON.stringify(value)}`;
        expect(result.success, label).toBe(!shouldRefuse);
        if (result.success) {
          expect(result.data[field], label).toBe(trimmed);
          accepted++;
        } else {
          expect(new Set(result.error.issues.map((issue) => issue.path[0])), label).toEqual(new Set([field]));
        }
      }
      // Markup, SQL, emoji, RTL text and Zalgo are text like any other: most of the list goes through
      // (less for the phone, where many entries are simply longer than 50 characters).
      expect(accepted).toBeGreaterThan(hostile.length * share);
    },
  );

  it('accepts as e-mail only strings shaped like an address', () => {
    for (const value of hostile) {
      const result = contactMessageSchema.safeParse({ ...valid, email: value });
      if (result.success)
        expect(result.data.email, JSON.stringify(value)).toMatch(/^[^\s@]+@[^\s@]+\.[^\s@]+$/);
    }
  });
});

describe('contact resource', () => {
  const server = useRecordingServer((_req, res) =>
    reply(res, 201, { id: 'm1', detail: 'Thank you for your message!' }),
  );

  it('posts the validated message to apps/contact/ as JSON, without the session token', async () => {
    const client = createPlanwrightClient({
      baseUrl: server.origin,
      tokenStore: new MemoryTokenStore({ token: 'tok' }),
    });
    const result = await client.contact.submit({ ...valid, first_name: '  Ada  ', phone: undefined });
    expect(result).toBeUndefined();
    const request = server.last();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/v1/apps/contact/');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers).not.toHaveProperty('x-session-token');
    expect(JSON.parse(request.body.toString('utf8'))).toEqual({ ...valid, phone: '' });
  });

  it('throws InvalidInputError and sends nothing when a field is invalid', async () => {
    const client = createPlanwrightClient({ baseUrl: server.origin });
    const call = client.contact.submit({ ...valid, email: 'nope' });
    await expect(call).rejects.toSatisfy(InvalidInputError.isInstance);
    await expect(call).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'Invalid contact message: email: Please enter a valid email address',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('rejects with ApiError when the server refuses, and keeps the session on a 403', async () => {
    server.handle((_req, res) => reply(res, 403, { detail: 'Too many messages', code: 'rate_limited' }));
    const tokenStore = new MemoryTokenStore({ token: 'tok' });
    const client = createPlanwrightClient({ baseUrl: server.origin, tokenStore });
    await expect(client.contact.submit(valid)).rejects.toMatchObject({
      status: 403,
      detail: 'Too many messages',
    });
    await expect(client.contact.submit(valid)).rejects.toSatisfy(ApiError.isInstance);
    expect(tokenStore.getToken()).toBe('tok');
  });

  it('delivers every accepted hostile string to the server unchanged', async () => {
    const hostile = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
    const client = createPlanwrightClient({ baseUrl: server.origin });
    const sent: string[] = [];
    for (const value of hostile) {
      if (!contactMessageSchema.safeParse({ ...valid, message: value }).success) continue;
      await client.contact.submit({ ...valid, message: value });
      sent.push(value.trim());
    }
    const received = server.requests.map(
      (r) => (JSON.parse(r.body.toString('utf8')) as { message: string }).message,
    );
    expect(received).toEqual(sent);
    expect(sent.length).toBeGreaterThan(hostile.length * 0.9);
  });
});
