import { unzipSync, zipSync } from 'fflate';
import { counted, type ImportNotes } from '../import-report.js';

/** Office Math (OMML) namespaces: transitional and ISO 29500 Strict. */
const MATH_NAMESPACES = [
  'http://schemas.openxmlformats.org/officeDocument/2006/math',
  'http://purl.oclc.org/ooxml/officeDocument/math',
];

/** WordprocessingML main namespaces: transitional and Strict. */
const WORD_NAMESPACES = [
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  'http://purl.oclc.org/ooxml/wordprocessingml/main',
];

/** The parts of a .docx whose paragraphs mammoth reads. */
const TEXT_PARTS = ['word/document.xml', 'word/footnotes.xml', 'word/endnotes.xml'];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The prefix an XML part binds to one of `namespaces`, or undefined. */
function prefixFor(xml: string, namespaces: readonly string[]): string | undefined {
  for (const namespace of namespaces) {
    const match = new RegExp(`xmlns:([A-Za-z_][\\w.-]*)="${escapeRegExp(namespace)}"`).exec(xml);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

/** What {@link equationsAsText} did to one part. */
interface PartRewrite {
  xml: string;
  equations: number;
  empty: number;
}

/**
 * Every outermost equation (`m:oMathPara`, else `m:oMath`) replaced by one Word run holding its text
 * (its `m:t` contents in order, still XML-escaped as written). mammoth skips OMML entirely, so without
 * this an equation vanishes from the import with no trace.
 */
function rewritePart(xml: string): PartRewrite | undefined {
  const m = prefixFor(xml, MATH_NAMESPACES);
  const w = prefixFor(xml, WORD_NAMESPACES);
  if (m === undefined || w === undefined || !xml.includes(`<${m}:oMath`)) return undefined;
  const equation = new RegExp(
    `<${m}:oMathPara\\b[\\s\\S]*?</${m}:oMathPara>|<${m}:oMath\\b[^>]*/>|<${m}:oMath\\b[\\s\\S]*?</${m}:oMath>`,
    'g',
  );
  const mathText = new RegExp(`<${m}:t\\b[^>]*>([^<]*)</${m}:t>`, 'g');
  let equations = 0;
  let empty = 0;
  const rewritten = xml.replace(equation, (found) => {
    equations += 1;
    let text = '';
    for (const match of found.matchAll(mathText)) text += match[1] ?? '';
    if (text.trim() === '') {
      empty += 1;
      return '';
    }
    return `<${w}:r><${w}:t xml:space="preserve">${text}</${w}:t></${w}:r>`;
  });
  return { xml: rewritten, equations, empty };
}

/**
 * Word equations (OMML) as plain text (F57a): returns the .docx bytes to give mammoth (the same bytes
 * when there is no equation) and records one `equation_as_text` note. `xmlParts` are the inflated XML
 * parts the zip guard already checked; the archive is only unpacked and packed again when a part changes.
 */
export function equationsAsText(
  bytes: Uint8Array,
  xmlParts: ReadonlyMap<string, Uint8Array>,
  notes: ImportNotes,
): Uint8Array {
  const changed = new Map<string, Uint8Array<ArrayBuffer>>();
  let equations = 0;
  let empty = 0;
  for (const name of TEXT_PARTS) {
    const part = xmlParts.get(name);
    if (part === undefined) continue;
    const xml = new TextDecoder().decode(part);
    if (!xml.includes('oMath')) continue;
    const rewrite = rewritePart(xml);
    if (rewrite === undefined || rewrite.equations === 0) continue;
    equations += rewrite.equations;
    empty += rewrite.empty;
    changed.set(name, new TextEncoder().encode(rewrite.xml));
  }
  if (equations === 0) return bytes;
  const kept = equations - empty;
  const parts = [
    ...(kept > 0
      ? [
          `${counted(kept, 'Word equation was', 'Word equations were')} kept as plain text (their layout, fractions and symbols' positions are lost)`,
        ]
      : []),
    ...(empty > 0 ? [`${counted(empty, 'Word equation', 'Word equations')} with no text left out`] : []),
  ];
  notes.add('equation_as_text', () => `${parts.join('; ')}.`, equations);
  const entries = unzipSync(bytes);
  for (const [name, part] of changed) entries[name] = part;
  return zipSync(entries);
}
