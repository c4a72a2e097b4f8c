import * as z from 'zod';

/** A copy of unsaved content, kept until the server confirms it (`src/save/SPEC.md` S17). */
export interface Draft<C> {
  content: C;
  /** The revision the content was edited from: the `If-Match` of its save. */
  baseRevision: number | null;
  /** When it was stored (epoch ms from the controller's clock). */
  savedAt: number;
}

/** Where drafts live. Implementations must not throw: a draft is a safety net, never a new way to fail. */
export interface DraftStore<C> {
  /** The stored draft, or `null` when there is none (or it cannot be read). */
  read(): Draft<C> | null;
  /** Stores `draft` in place of the previous one. */
  write(draft: Draft<C>): void;
  /** Removes the stored draft. */
  clear(): void;
  /**
   * The `savedAt` of the stored draft without reading its content (`null`: none, or unknown). Optional: with
   * it, the controller confirms its own last draft without parsing and comparing a large tree (S17).
   */
  peekSavedAt?(): number | null;
}

/** The part of the Web Storage API a draft store needs. */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Options for {@link createStorageDraftStore}. */
export interface StorageDraftStoreOptions<C> {
  /**
   * The storage, looked up at each use (`() => globalThis.localStorage`); `null` when there is none. Reading
   * `localStorage` itself throws in sandboxed frames and with cookies blocked; that is caught too.
   */
  storage: () => DraftStorage | null;
  /** The key, from {@link draftKey}. */
  key: string;
  /** Checks stored content (a zod `safeParse`, a guard); `null` refuses it and the draft reads as none. */
  parse: (value: unknown) => C | null;
}

const DRAFT_FORMAT = 1;

/** The start of a stored draft as `write` makes it: `{"v":1,"savedAt":<number>,`. */
const SAVED_AT_PREFIX = /^\{"v":1,"savedAt":(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?),/;

/** Every draft key starts with this (`draftKey`). */
export const DRAFT_KEY_PREFIX = 'planwright:draft:';

const storedDraftSchema = z.object({
  v: z.literal(DRAFT_FORMAT),
  content: z.unknown(),
  baseRevision: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable(),
  savedAt: z.number().finite(),
});

function attempt<T>(run: () => T, fallback: T): T {
  try {
    return run();
  } catch {
    return fallback;
  }
}

/**
 * A {@link DraftStore} over `localStorage` (or anything shaped like it) under one key (S18). It never throws:
 * no storage, storage that throws, corrupt JSON, a wrong shape or content `parse` refuses read as no draft; a
 * write that fails (quota exceeded, private mode, content JSON cannot hold) is skipped, since the editor still
 * holds the content and the save goes on.
 *
 * @example
 * const drafts = createStorageDraftStore({
 *   storage: () => globalThis.localStorage ?? null,
 *   key: draftKey('document', uuid),
 *   parse: (value) => (isDocumentJson(value) ? value : null),
 * });
 */
export function createStorageDraftStore<C>(options: StorageDraftStoreOptions<C>): DraftStore<C> {
  const storage = () => attempt(options.storage, null);

  return {
    read: () =>
      attempt(() => {
        const text = storage()?.getItem(options.key);
        if (typeof text !== 'string') return null;
        const stored = storedDraftSchema.safeParse(JSON.parse(text));
        if (!stored.success) return null;
        const content = options.parse(stored.data.content);
        if (content === null) return null;
        return { content, baseRevision: stored.data.baseRevision, savedAt: stored.data.savedAt };
      }, null),
    write: (draft) => {
      attempt(() => {
        const target = storage();
        if (!target) return;
        // `savedAt` first, so peekSavedAt reads it from the start of the text without parsing the content.
        const text = JSON.stringify({
          v: DRAFT_FORMAT,
          savedAt: draft.savedAt,
          baseRevision: draft.baseRevision,
          content: draft.content,
        });
        target.setItem(options.key, text);
      }, undefined);
    },
    clear: () => {
      attempt(() => storage()?.removeItem(options.key), undefined);
    },
    peekSavedAt: () =>
      attempt(() => {
        const text = storage()?.getItem(options.key);
        if (typeof text !== 'string') return null;
        const match = SAVED_AT_PREFIX.exec(text.slice(0, 64));
        const savedAt = match?.[1] === undefined ? Number.NaN : Number(match[1]);
        return Number.isFinite(savedAt) ? savedAt : null;
      }, null),
  };
}

/** The resources that autosave. */
export type DraftResourceType = 'document' | 'blueprint';

/**
 * The storage key of a resource's draft: `planwright:draft:document:<uuid>`. A blank uuid is refused with a
 * `TypeError`: every resource without one would share a draft, and one would be restored into another.
 */
export function draftKey(resourceType: DraftResourceType, uuid: string): string {
  if (resourceType !== 'document' && resourceType !== 'blueprint') {
    throw new TypeError(`Unknown resource type for a draft: ${String(resourceType)}`);
  }
  if (typeof uuid !== 'string' || uuid.trim() === '') {
    throw new TypeError('A draft key needs the resource uuid.');
  }
  return `${DRAFT_KEY_PREFIX}${resourceType}:${uuid}`;
}

/** What {@link clearStoredDrafts} needs of the Web Storage API. */
export type DraftListingStorage = Pick<Storage, 'length' | 'key' | 'removeItem'>;

/**
 * Removes every stored draft (S25): on sign-out, so unsaved content does not outlive the session on a shared
 * computer. Returns how many were removed; never throws (blocked storage removes nothing).
 */
export function clearStoredDrafts(storage: () => DraftListingStorage | null): number {
  return attempt(() => {
    const target = storage();
    if (!target) return 0;
    const keys: string[] = [];
    for (let index = 0; index < target.length; index += 1) {
      const key = target.key(index);
      if (key?.startsWith(DRAFT_KEY_PREFIX)) keys.push(key);
    }
    for (const key of keys) target.removeItem(key);
    return keys.length;
  }, 0);
}
