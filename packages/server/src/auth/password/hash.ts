import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { exceedsLength, MAX_PASSWORD_LENGTH } from './limits.js';

/** scrypt's cost parameters: N = 2^ln (CPU and memory), r (block size), p (parallelism). */
export interface ScryptParams {
  readonly ln: number;
  readonly r: number;
  readonly p: number;
}

/**
 * The parameters new hashes use: N = 2^14, r = 12, p = 1, so 24 MiB of memory per hash.
 *
 * Measured with `node bench/password-hash.mjs` on the project's machines (2 cores, Node 20), 30 runs:
 * one verify takes 60 ms median (86 ms p90), so a whole login, with its database reads and the new
 * session, stays within the 100 ms the issue sets. Doubling N (2^15, r = 8, 32 MiB) already costs
 * 100 ms median, so the remaining budget went into r, which raises memory and time together:
 * 2^14 with r = 8 (Django's own scrypt default, 16 MiB) takes 41 ms. p stays 1 because Node runs the
 * p lanes one after another: more p adds time, not memory.
 *
 * Raising them later is safe: each stored hash names its own parameters, and a login on an older hash
 * answers `needsRehash` so the caller stores a new one.
 */
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = Object.freeze({ ln: 14, r: 12, p: 1 });

/** Random salt per hash, 128 bits. */
const SALT_BYTES = 16;
/** Derived key length, 256 bits. */
const KEY_BYTES = 32;
const SCHEME = 'scrypt';

// Bounds for parameters read back from a stored hash, so that a garbled or tampered row cannot ask for
// gigabytes of memory or minutes of CPU. They leave room to raise the defaults about 20-fold.
const MAX_MEMORY_BYTES = 256 * 1024 * 1024;
const MAX_WORK = 2 ** 22; // N·r·p
const STORED_PATTERN =
  /^scrypt\$ln=([1-9]\d?)\$r=([1-9]\d{0,2})\$p=([1-9]\d{0,2})\$([A-Za-z0-9+/]{11,86})\$([A-Za-z0-9+/]{22,86})$/;

/** What a verification found: whether the password matched, and whether its hash should be redone. */
export interface PasswordVerdict {
  /** The password matches the stored hash. */
  ok: boolean;
  /** Only when `ok`: the stored hash is weaker than today's parameters; store `hash(password)` anew. */
  needsRehash: boolean;
}

/** Hashes and verifies passwords with one set of scrypt parameters. */
export interface PasswordHasher {
  /** The parameters new hashes get. */
  readonly params: ScryptParams;
  /** `scrypt$ln=…$r=…$p=…$<salt>$<key>` with a fresh random salt. */
  hash(password: string): Promise<string>;
  /** Compares in constant time; a malformed stored string is a mismatch that costs a full hash. */
  verify(password: string, stored: string): Promise<PasswordVerdict>;
  /** Costs what `verify` costs and always mismatches: for logins to addresses that have no account. */
  dummyVerify(password?: string): Promise<PasswordVerdict>;
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

const MISMATCH: PasswordVerdict = Object.freeze({ ok: false, needsRehash: false });

/** Bytes scrypt allocates for these parameters (OpenSSL's own formula: 128·r·(N + p + 2)). */
function scryptMemory({ ln, r, p }: ScryptParams): number {
  return 128 * r * (2 ** ln + p + 2);
}

function withinBounds(params: ScryptParams): boolean {
  const { ln, r, p } = params;
  return (
    Number.isInteger(ln) &&
    Number.isInteger(r) &&
    Number.isInteger(p) &&
    ln >= 1 &&
    r >= 1 &&
    p >= 1 &&
    scryptMemory(params) <= MAX_MEMORY_BYTES &&
    2 ** ln * r * p <= MAX_WORK
  );
}

function derive(password: Buffer, salt: Buffer, keyLength: number, params: ScryptParams): Promise<Buffer> {
  const { ln, r, p } = params;
  return new Promise((resolve, reject) => {
    // The async variant runs on libuv's thread pool; scryptSync would stall every request for ~60 ms.
    scrypt(
      password,
      salt,
      keyLength,
      { N: 2 ** ln, r, p, maxmem: scryptMemory(params) + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

const LONE_SURROGATE_TEST = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE_TEST.source, 'g');

/**
 * The bytes scrypt hashes: UTF-8, exactly as typed (no Unicode normalisation, like Django), made
 * injective in two places where the plain encoding is not:
 *
 * - A JSON body can carry a lone surrogate (`"\ud800"`), which Node's UTF-8 encoder would silently turn
 *   into U+FFFD, so two different passwords would hash alike. Lone surrogates are therefore written as
 *   their own three bytes (generalised UTF-8, "WTF-8").
 * - scrypt keys HMAC-SHA256 with the password, and HMAC pads a short key with zero bytes, so `"abc"` and
 *   `"abc\0"` would derive the same key. Bytes that end in 0x00 get a trailing 0xFF, a byte no (WTF-)UTF-8
 *   text contains, so no encoded password ends in a zero byte and none is another's padding.
 *
 * Every well-formed string that does not end in NUL is plain UTF-8, as before.
 */
function passwordBytes(password: string): Buffer {
  const bytes = textBytes(password);
  return bytes.at(-1) === 0x00 ? Buffer.concat([bytes, Buffer.from([0xff])]) : bytes;
}

function textBytes(password: string): Buffer {
  if (!LONE_SURROGATE_TEST.test(password)) return Buffer.from(password, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (const match of password.matchAll(LONE_SURROGATES)) {
    const unit = password.charCodeAt(match.index);
    parts.push(
      Buffer.from(password.slice(from, match.index), 'utf8'),
      Buffer.from([0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]),
    );
    from = match.index + 1;
  }
  parts.push(Buffer.from(password.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

function encodeBase64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

/** Strict base64 (no padding): anything that does not re-encode to itself is refused. */
function decodeBase64(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64');
  return encodeBase64(bytes) === text ? bytes : undefined;
}

function formatHash({ params, salt, key }: ParsedHash): string {
  return `${SCHEME}$ln=${params.ln}$r=${params.r}$p=${params.p}$${encodeBase64(salt)}$${encodeBase64(key)}`;
}

function parseHash(stored: unknown): ParsedHash | undefined {
  if (typeof stored !== 'string' || stored.length > 256) return undefined;
  const match = STORED_PATTERN.exec(stored);
  if (!match) return undefined;
  const [, ln, r, p, saltText, keyText] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const params: ScryptParams = { ln: Number(ln), r: Number(r), p: Number(p) };
  const salt = decodeBase64(saltText);
  const key = decodeBase64(keyText);
  if (!salt || !key || !withinBounds(params)) return undefined;
  if (salt.length < 8 || salt.length > 64 || key.length < 16 || key.length > 64) return undefined;
  return { params, salt, key };
}

function isWeaker(stored: ParsedHash, current: ScryptParams): boolean {
  return (
    stored.params.ln < current.ln ||
    stored.params.r < current.r ||
    stored.params.p < current.p ||
    stored.salt.length < SALT_BYTES ||
    stored.key.length < KEY_BYTES
  );
}

function requireString(password: unknown): asserts password is string {
  if (typeof password !== 'string') throw new TypeError('The password must be a string.');
}

/**
 * A hasher with its own parameters. The server uses the default one; tests pass small parameters
 * where the cost is not what they test.
 */
export function createPasswordHasher(options: { params?: ScryptParams } = {}): PasswordHasher {
  const params: ScryptParams = Object.freeze({ ...(options.params ?? DEFAULT_SCRYPT_PARAMS) });
  if (!withinBounds(params)) throw new RangeError(`Invalid scrypt parameters: ${JSON.stringify(params)}`);
  const dummyKey = randomBytes(KEY_BYTES);

  async function dummyVerify(password = ''): Promise<PasswordVerdict> {
    const input =
      typeof password === 'string' && !exceedsLength(password) ? passwordBytes(password) : Buffer.alloc(0);
    const key = await derive(input, randomBytes(SALT_BYTES), KEY_BYTES, params);
    timingSafeEqual(key, dummyKey);
    return MISMATCH;
  }

  return {
    params,
    async hash(password) {
      requireString(password);
      // The policy refuses these first (password_too_long); this is the last line, never a truncation.
      if (exceedsLength(password)) {
        throw new RangeError(`Refusing to hash a password longer than ${MAX_PASSWORD_LENGTH} characters.`);
      }
      const salt = randomBytes(SALT_BYTES);
      const key = await derive(passwordBytes(password), salt, KEY_BYTES, params);
      return formatHash({ params, salt, key });
    },
    async verify(password, stored) {
      requireString(password);
      const parsed = parseHash(stored);
      // No usable hash (an account without a password, a garbled row) or a password we would never
      // have hashed: spend the same time as a real check, then answer a plain mismatch.
      if (!parsed || exceedsLength(password)) return dummyVerify(password);
      const key = await derive(passwordBytes(password), parsed.salt, parsed.key.length, parsed.params);
      if (!timingSafeEqual(key, parsed.key)) return MISMATCH;
      return { ok: true, needsRehash: isWeaker(parsed, params) };
    },
    dummyVerify,
  };
}

/** True when `stored` is a hash this module can verify (it may still be due for a rehash). */
export function isPasswordHash(stored: string): boolean {
  return parseHash(stored) !== undefined;
}

let defaultHasher: PasswordHasher | undefined;
function hasher(): PasswordHasher {
  defaultHasher ??= createPasswordHasher();
  return defaultHasher;
}

/** Hashes with the default parameters. */
export function hashPassword(password: string): Promise<string> {
  return hasher().hash(password);
}

/** Verifies against a stored hash, whatever parameters it was made with. */
export function verifyPassword(password: string, stored: string): Promise<PasswordVerdict> {
  return hasher().verify(password, stored);
}

/** A verification that always fails but costs as much as a real one. */
export function dummyVerify(password?: string): Promise<PasswordVerdict> {
  return hasher().dummyVerify(password);
}
