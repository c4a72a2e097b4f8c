import { Inflate } from 'fflate';
import { FormatError } from '../../errors/format-error.js';

/** How much a .docx may hold before it is refused, unread. */
export interface ZipLimits {
  /** Most entries in the archive (10,000). */
  maxEntries: number;
  /** Most bytes all entries may inflate to together, counted while inflating (50 MB). */
  maxUnpackedBytes: number;
  /** Most bytes of the file itself (50 MB; `undefined`: no limit). */
  maxFileBytes?: number;
}

/** The limits used when none are given. */
export const DEFAULT_ZIP_LIMITS: Readonly<Required<ZipLimits>> = Object.freeze({
  maxEntries: 10_000,
  maxUnpackedBytes: 50 * 1024 * 1024,
  maxFileBytes: 50 * 1024 * 1024,
});

/** One entry of an inspected archive. */
export interface ZipEntryInfo {
  /** The entry's path inside the archive. */
  name: string;
  /** Its real inflated size in bytes (counted, not the declared one). */
  size: number;
}

/** @internal An inspected archive with the bytes of its XML parts (for reading styles and counting). */
export interface InspectedZip {
  entries: ZipEntryInfo[];
  /** Inflated bytes of every entry that looks like XML, by name. */
  xmlParts: Map<string, Uint8Array>;
}

const OLE2_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
/** Compressed bytes fed to the inflater at a time: bounds what one push can produce (deflate peaks near 1:1032). */
const INFLATE_CHUNK = 8 * 1024;

const MESSAGES = {
  not_a_zip: 'The file is not a .docx document (it is not a zip archive, or it is damaged or truncated).',
  encrypted: 'The file is password-protected; remove the password in Word and try again.',
  too_many_entries: 'The file holds too many parts to be a document we can import.',
  unsafe_entry_name: 'The file holds a part whose name points outside the document; it was refused.',
  too_large: 'The file is too large to import.',
  xml_entities: 'The file declares XML entities (a DOCTYPE), which are never read; it was refused.',
  not_a_docx: 'The file is a zip archive but not a Word document (word/document.xml is missing).',
  duplicate_entry:
    'The file holds two parts with the same name, so Word and Planwright could read different content; it was refused.',
} as const;

function refuse(reason: keyof typeof MESSAGES, cause?: unknown): FormatError {
  return new FormatError({ reason, message: MESSAGES[reason], cause });
}

/**
 * Checks a .docx before any parser sees it (rules F40–F49): it must be a zip archive (not an OLE2
 * container, which is what a password-protected Office file is), with no encrypted entry, at most
 * `maxEntries` entries, no entry name escaping the archive, at most `maxUnpackedBytes` once inflated
 * (counted while inflating, never trusting declared sizes), no XML part declaring a DOCTYPE or
 * entities, and a `word/document.xml`.
 *
 * @returns every entry with its real size.
 * @throws {FormatError} `not_a_zip`, `encrypted`, `too_many_entries`, `unsafe_entry_name`, `duplicate_entry`, `too_large`,
 *   `xml_entities` or `not_a_docx`.
 */
export function inspectZip(bytes: Uint8Array, limits: Partial<ZipLimits> = {}): ZipEntryInfo[] {
  return inspectDocxZip(bytes, limits).entries;
}

/** @internal {@link inspectZip}, also answering the XML parts' bytes. */
export function inspectDocxZip(bytes: Uint8Array, limits: Partial<ZipLimits> = {}): InspectedZip {
  const maxEntries = limits.maxEntries ?? DEFAULT_ZIP_LIMITS.maxEntries;
  const maxUnpackedBytes = limits.maxUnpackedBytes ?? DEFAULT_ZIP_LIMITS.maxUnpackedBytes;
  const maxFileBytes = 'maxFileBytes' in limits ? limits.maxFileBytes : DEFAULT_ZIP_LIMITS.maxFileBytes;
  if (maxFileBytes !== undefined && bytes.length > maxFileBytes) throw refuse('too_large');
  if (OLE2_MAGIC.every((byte, index) => bytes[index] === byte)) throw refuse('encrypted');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < EOCD_SIZE || view.getUint32(0, true) !== LOCAL_HEADER) throw refuse('not_a_zip');
  const eocd = findEndOfCentralDirectory(view);
  if (eocd < 0) throw refuse('not_a_zip');
  const entryCount = view.getUint16(eocd + 10, true);
  const directorySize = view.getUint32(eocd + 12, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  // Zip64 markers: only needed past 65,535 entries or 4 GB, both far over the limits.
  if (entryCount === 0xffff || directoryOffset === 0xffffffff) throw refuse('too_large');
  if (entryCount > maxEntries) throw refuse('too_many_entries');
  if (directoryOffset + directorySize > eocd) throw refuse('not_a_zip');

  const entries: ZipEntryInfo[] = [];
  const xmlParts = new Map<string, Uint8Array>();
  const seen = new Set<string>();
  let unpacked = 0;
  const count = (size: number): void => {
    unpacked += size;
    if (unpacked > maxUnpackedBytes) throw refuse('too_large');
  };
  let offset = directoryOffset;
  for (let index = 0; index < entryCount; index += 1) {
    if (offset + 46 > eocd || view.getUint32(offset, true) !== CENTRAL_HEADER) throw refuse('not_a_zip');
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    const compressedSize = view.getUint32(offset + 20, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const localOffset = view.getUint32(offset + 42, true);
    const nameBytes = bytes.subarray(offset + 46, offset + 46 + nameLength);
    offset += 46 + nameLength + extraLength + commentLength;
    if (offset > eocd) throw refuse('not_a_zip');
    const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(nameBytes);
    if (isUnsafeEntryName(name)) throw refuse('unsafe_entry_name');
    // Part names are case-insensitive in Office files; one reader takes the first copy, another the last.
    const key = name.replaceAll('\\', '/').toLowerCase();
    if (seen.has(key)) throw refuse('duplicate_entry');
    seen.add(key);
    // Bit 0: traditional or strong encryption; bit 6: strong encryption.
    if (flags & 0x41) throw refuse('encrypted');
    const data = entryData(view, bytes, localOffset, compressedSize);
    const parts: Uint8Array[] = [];
    let size = 0;
    const take = (chunk: Uint8Array): void => {
      size += chunk.length;
      count(chunk.length);
      parts.push(chunk);
    };
    if (method === 0) take(data);
    else if (method === 8) inflateCounted(data, take);
    else
      throw new FormatError({
        reason: 'not_a_docx',
        message: 'The file uses a zip compression Word never writes.',
      });
    const content = concat(parts, size);
    if (isXmlName(name) || looksLikeXml(content)) {
      if (declaresEntities(content)) throw refuse('xml_entities');
      xmlParts.set(name, content);
    }
    entries.push({ name, size });
  }
  if (!entries.some((entry) => entry.name === 'word/document.xml')) throw refuse('not_a_docx');
  return { entries, xmlParts };
}

/** The EOCD record's offset, searching back over the longest possible comment; -1 when there is none. */
function findEndOfCentralDirectory(view: DataView): number {
  const lowest = Math.max(0, view.byteLength - EOCD_SIZE - MAX_COMMENT);
  for (let offset = view.byteLength - EOCD_SIZE; offset >= lowest; offset -= 1) {
    if (
      view.getUint32(offset, true) === END_OF_CENTRAL_DIRECTORY &&
      offset + EOCD_SIZE + view.getUint16(offset + 20, true) === view.byteLength
    ) {
      return offset;
    }
  }
  return -1;
}

/** The compressed bytes of an entry, located through its local header. */
function entryData(
  view: DataView,
  bytes: Uint8Array,
  localOffset: number,
  compressedSize: number,
): Uint8Array {
  if (localOffset + 30 > view.byteLength || view.getUint32(localOffset, true) !== LOCAL_HEADER) {
    throw refuse('not_a_zip');
  }
  const start =
    localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
  const end = start + compressedSize;
  if (end > view.byteLength) throw refuse('not_a_zip');
  return bytes.subarray(start, end);
}

/** Inflates in small pushes so `take` (which counts and may throw) sees every chunk as it is produced. */
function inflateCounted(data: Uint8Array, take: (chunk: Uint8Array) => void): void {
  const inflater = new Inflate((chunk) => take(chunk));
  try {
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
    for (let start = 0; start < data.length; start += INFLATE_CHUNK) {
      const end = Math.min(start + INFLATE_CHUNK, data.length);
      inflater.push(data.subarray(start, end), end === data.length);
    }
  } catch (error) {
    if (FormatError.isInstance(error)) throw error;
    throw refuse('not_a_zip', error);
  }
}

/** `..` segments, absolute paths, drive letters and NUL escape the archive. */
function isUnsafeEntryName(name: string): boolean {
  if (name === '' || name.includes('\0')) return true;
  if (name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name)) return true;
  return name.split(/[\\/]/).some((segment) => segment === '..');
}

function isXmlName(name: string): boolean {
  return /\.(?:xml|rels|vml)$/i.test(name);
}

/** Content that starts (after a BOM and whitespace) with `<`, or with a UTF-16 BOM: whatever its name, it may be parsed as XML. */
function looksLikeXml(data: Uint8Array): boolean {
  if ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff)) return true;
  let index = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? 3 : 0;
  while (
    index < data.length &&
    (data[index] === 0x20 || data[index] === 0x0a || data[index] === 0x0d || data[index] === 0x09)
  ) {
    index += 1;
  }
  return data[index] === 0x3c;
}

const DOCTYPE = Array.from('DOCTYPE', (c) => c.charCodeAt(0));
const ENTITY = Array.from('ENTITY', (c) => c.charCodeAt(0));

/** Whether the part holds `<!DOCTYPE` or `<!ENTITY` (any case; UTF-16 parts decoded first). */
function declaresEntities(content: Uint8Array): boolean {
  if ((content[0] === 0xff && content[1] === 0xfe) || (content[0] === 0xfe && content[1] === 0xff)) {
    const text = new TextDecoder(content[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(content);
    return /<!\s*(?:DOCTYPE|ENTITY)/i.test(text);
  }
  for (let index = content.indexOf(0x21); index >= 0; index = content.indexOf(0x21, index + 1)) {
    if (content[index - 1] !== 0x3c) continue;
    if (matchesWord(content, index + 1, DOCTYPE) || matchesWord(content, index + 1, ENTITY)) return true;
  }
  return false;
}

function matchesWord(content: Uint8Array, start: number, word: readonly number[]): boolean {
  return word.every((code, offset) => ((content[start + offset] ?? 0) & 0xdf) === code);
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
