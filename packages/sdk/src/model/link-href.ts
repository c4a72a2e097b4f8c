/** The schemes spec 001 §3 names; compared case-insensitively, as browsers do. */
export const STANDARD_LINK_SCHEMES: readonly string[] = [
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'tel',
  'callto',
  'sms',
  'cid',
  'xmpp',
];

/**
 * Schemes that fit the custom-scheme grammar but run code, read local data or reach browser internals.
 * Spec 001 allows "custom ones", and `javascript` is spelt with lowercase letters only, so the grammar
 * alone would let it through.
 */
export const BLOCKED_LINK_SCHEMES: readonly string[] = [
  'javascript',
  'vbscript',
  'livescript',
  'mocha',
  'data',
  'blob',
  'file',
  'filesystem',
  'about',
  'view-source',
  'jar',
  'intent',
  'chrome',
  'chrome-extension',
  'moz-extension',
  'resource',
  'res',
  'ms-msdt',
  'ms-officecmd',
  'search-ms',
  'search',
];

const standard = new Set(STANDARD_LINK_SCHEMES);
const blocked = new Set(BLOCKED_LINK_SCHEMES);

/** Digits, lowercase letters and single inner hyphens (spec 001 §3). */
const CUSTOM_SCHEME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Characters browsers (and DOMPurify, and Tiptap's own check) ignore around or inside a URL's scheme:
 * C0 controls, space and the Unicode spaces. ` java\tscript:` must be judged as `javascript:`.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const IGNORED_CHARACTERS = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g;

/** Character references a renderer that forgets to escape `&` would decode into a scheme. */
const CHARACTER_REFERENCE = /&(?:#x([0-9a-f]+)|#(\d+)|(colon|tab|newline));?/gi;

function decodeReferences(value: string): string {
  return value.replace(
    CHARACTER_REFERENCE,
    (_match, hex: string | undefined, decimal: string | undefined, name: string | undefined) => {
      if (name !== undefined) return { colon: ':', tab: '\t', newline: '\n' }[name.toLowerCase()] ?? '';
      const code = Number.parseInt(hex ?? decimal ?? '', hex === undefined ? 10 : 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    },
  );
}

/** The scheme written before the first `:` that comes before any `/`, `?` or `#`; null for a relative URL. */
function schemeOf(href: string): string | null {
  const compact = href.replace(IGNORED_CHARACTERS, '');
  const end = compact.search(/[:/?#]/);
  return end !== -1 && compact[end] === ':' ? compact.slice(0, end) : null;
}

function schemeAllowed(scheme: string | null): boolean {
  if (scheme === null) return true;
  if (standard.has(scheme.toLowerCase())) return true;
  return CUSTOM_SCHEME.test(scheme) && !blocked.has(scheme);
}

/**
 * Whether a link may point to `href` (model/SPEC.md M13): a relative reference (`/path`, `#anchor`,
 * `?q`, `page.html`, `//host/path`), one of the standard schemes in any case, or a custom scheme of
 * digits, lowercase letters and single inner hyphens that is not one of {@link BLOCKED_LINK_SCHEMES}.
 * Blank hrefs are refused. Whitespace and control characters are ignored while finding the scheme,
 * and the check is repeated with HTML character references decoded.
 */
export function isAllowedLinkHref(href: unknown): href is string {
  if (typeof href !== 'string' || href.replace(IGNORED_CHARACTERS, '') === '') return false;
  return schemeAllowed(schemeOf(href)) && schemeAllowed(schemeOf(decodeReferences(href)));
}

/** The schemes an exported file (.docx, PDF, HTML) may link to; everything else is written as plain text. */
export const EXPORTED_LINK_SCHEMES: readonly string[] = ['http', 'https', 'mailto'];

const exported = new Set(EXPORTED_LINK_SCHEMES);

/**
 * Whether an export (.docx, PDF, HTML) writes a link to `href` (model/SPEC.md M14): it passes
 * {@link isAllowedLinkHref} and is either `http:`, `https:` or `mailto:` (any case) or an in-document
 * `#anchor`. The editor holds more (relative paths, `tel:`, custom schemes), but in a file that leaves
 * the editor a relative or scheme-less reference such as `\\host\share\x.docx` or `//host/x` is
 * resolved by Word or a PDF viewer against the reader's machine or network (Word contacts the host on
 * click), so it stays text.
 */
export function isExportableLinkHref(href: unknown): href is string {
  if (!isAllowedLinkHref(href)) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a backslash or control character anywhere is refused.
  if (/[\\\u0000-\u001F\u007F]/.test(href)) return false;
  const compact = href.replace(IGNORED_CHARACTERS, '');
  if (compact.startsWith('#')) return compact.length > 1;
  const scheme = schemeOf(href);
  return scheme !== null && exported.has(scheme.toLowerCase()) && schemeOf(decodeReferences(href)) === scheme;
}

/** Whether an exportable href points inside the document (`#anchor`) rather than to a URL. */
export function isInDocumentLinkHref(href: string): boolean {
  return href.replace(IGNORED_CHARACTERS, '').startsWith('#');
}
