/** One query parameter value; `null` and `undefined` are left out of the URL. */
export type QueryValue = string | number | boolean | null | undefined;

/** A params object (spec 000 §7): arrays repeat the key, `null`/`undefined` are skipped. */
export type QueryParams = Readonly<Record<string, QueryValue | readonly QueryValue[]>>;

function isList(value: QueryValue | readonly QueryValue[]): value is readonly QueryValue[] {
  return Array.isArray(value);
}

/**
 * `{ level__gte: 1, tag: ['a', 'b'], target: null }` → `level__gte=1&tag=a&tag=b`. Encoding is
 * URLSearchParams' (spaces become `+`), which every server framework decodes.
 */
export function toQueryString(params: QueryParams | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const item of isList(value) ? value : [value]) {
      if (item !== null && item !== undefined) search.append(key, String(item));
    }
  }
  return search.toString();
}
