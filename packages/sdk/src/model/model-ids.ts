/**
 * Section and subsection `uuid`s end up in URLs and in the server's `uuid` columns, so they must be real
 * UUIDs (any version, any case on input; stored lowercase).
 */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Block `nodeId`s are written into `data-node-id` attributes and proposals: a plain token, nothing else. */
const NODE_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** Whether `value` is a UUID string (any version, any case). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/** Whether `value` can be a block's `nodeId`: 1–128 letters, digits, `_` or `-`. */
export function isNodeId(value: unknown): value is string {
  return typeof value === 'string' && NODE_ID_PATTERN.test(value);
}

/** Makes ids for new sections, subsections and blocks; must return a fresh UUID on each call. */
export type GenerateId = () => string;

/**
 * `crypto.randomUUID()`, looked up when called (never at import) so tests can swap it. Browsers only
 * offer `randomUUID` on secure origins (an editor served over plain http on a LAN has none), so it falls
 * back to a version-4 UUID made from `crypto.getRandomValues`, which every origin has.
 */
export const defaultGenerateId: GenerateId = () => {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** How many times a generator may hand back a taken or malformed id before it is declared broken. */
const MAX_ATTEMPTS = 16;

/**
 * @internal Hands out ids that are not taken yet and records them. A generator that keeps returning
 * malformed or taken ids is a programming error, so that (and only that) throws.
 */
export class IdAllocator {
  private readonly taken = new Set<string>();

  constructor(private readonly generateId: GenerateId) {}

  /** Records `id` as used; false when it already was. */
  claim(id: string): boolean {
    if (this.taken.has(id)) return false;
    this.taken.add(id);
    return true;
  }

  /** A new UUID (lowercase) nobody has claimed. */
  newUuid(): string {
    return this.fresh(isUuid, true);
  }

  /** A new block `nodeId` nobody has claimed. */
  newNodeId(): string {
    return this.fresh(isNodeId, false);
  }

  private fresh(valid: (value: unknown) => boolean, lowercase: boolean): string {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const generated: unknown = this.generateId();
      if (!valid(generated)) continue;
      const id = lowercase ? (generated as string).toLowerCase() : (generated as string);
      if (this.claim(id)) return id;
    }
    throw new TypeError(
      `generateId returned ${MAX_ATTEMPTS} malformed or repeated ids in a row; it must return fresh UUIDs.`,
    );
  }
}
