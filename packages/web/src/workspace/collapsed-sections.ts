import type { KeyValueStorage } from '../platform/browser-ports';

/** More than any plan holds: a stored list longer than this is someone else's data, cut to size. */
const MAX_STORED = 1000;

/**
 * W15: where the sidebar keeps which sections are collapsed, per resource (spec 001 §2: "a key made of
 * resource type and uuid").
 */
export function collapsedSectionsKey(resource: 'document' | 'blueprint', uuid: string): string {
  return `planwright:sidebar:${resource}:${uuid}`;
}

/**
 * The collapsed section uuids stored under the key. Storage is never trusted: anything but a JSON list
 * gives none, and only non-empty strings of the list count.
 */
export function parseCollapsedSections(raw: string | null): ReadonlySet<string> {
  if (raw === null) return new Set();
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return new Set();
  }
  if (!Array.isArray(value)) return new Set();
  const uuids = value.filter((item): item is string => typeof item === 'string' && item !== '');
  return new Set(uuids.slice(0, MAX_STORED));
}

/** The stored form: a JSON list of the collapsed uuids that still name a section of the outline. */
export function serializeCollapsedSections(
  collapsed: ReadonlySet<string>,
  sectionUuids: readonly string[],
): string {
  const known = new Set(sectionUuids);
  return JSON.stringify([...collapsed].filter((uuid) => known.has(uuid)));
}

/** Reads the collapsed set; blocked or throwing storage reads as none. */
export function readCollapsedSections(storage: KeyValueStorage | null, key: string): ReadonlySet<string> {
  try {
    return parseCollapsedSections(storage?.getItem(key) ?? null);
  } catch {
    return new Set();
  }
}

/** Writes the collapsed set; a full or blocked storage only loses the preference, never the page. */
export function writeCollapsedSections(storage: KeyValueStorage | null, key: string, value: string): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // Quota exceeded or storage blocked: the sidebar still works, it only forgets on reload.
  }
}
