import { counted, type ImportNotes } from '../import-report.js';

const NOTE_ID = /^(?:footnote|endnote)-/;
const NOTE_REF_ID = /^(?:footnote|endnote)-ref-/;

/**
 * Moves mammoth's footnotes and endnotes (one `ol` of `li#footnote-N` at the end of the HTML) to the
 * end of the section that references them (F55): the reference stays as its "[N]" text, the note's
 * paragraphs follow the section's last block, the first starting "[N] ". Sections start at `h1`.
 * Notes nobody references stay at the end of the document.
 */
export function moveNotesToSections(body: Element, notes: ImportNotes): void {
  const items = new Map<string, Element>();
  for (const list of Array.from(body.children)) {
    if (list.localName !== 'ol') continue;
    const lis = Array.from(list.children);
    if (lis.length === 0 || !lis.every((li) => li.localName === 'li' && NOTE_ID.test(li.id))) continue;
    for (const li of lis) {
      for (const back of Array.from(li.querySelectorAll('a[href]'))) {
        if (NOTE_REF_ID.test((back.getAttribute('href') ?? '').slice(1))) back.remove();
      }
      items.set(li.id, li);
    }
    list.remove();
  }
  if (items.size === 0) return;

  let moved = 0;
  let pending: { id: string; marker: string }[] = [];
  const placeBefore = (next: Element | null): void => {
    for (const { id, marker } of pending) {
      const li = items.get(id);
      if (!li) continue;
      items.delete(id);
      moved += 1;
      insertNote(body, li, marker, next);
    }
    pending = [];
  };
  for (const child of Array.from(body.children)) {
    if (child.localName === 'h1') placeBefore(child);
    for (const reference of Array.from(child.querySelectorAll('a[id]'))) {
      if (!NOTE_REF_ID.test(reference.id)) continue;
      const id = (reference.getAttribute('href') ?? '').slice(1);
      const marker = reference.textContent ?? '';
      pending.push({ id, marker });
      // The reference keeps its "[N]" as plain text: `sup` has no mark in the model.
      const holder =
        reference.parentElement?.localName === 'sup' && reference.parentElement.childNodes.length === 1
          ? reference.parentElement
          : reference;
      holder.replaceWith(body.ownerDocument.createTextNode(marker));
    }
  }
  placeBefore(null);
  for (const [, li] of items) {
    moved += 1;
    insertNote(body, li, '', null);
  }
  notes.add(
    'footnote_moved',
    (n) =>
      `${counted(n, 'footnote or endnote', 'footnotes and endnotes')} became text at the end of ${n === 1 ? 'its' : 'their'} section.`,
    moved,
  );
}

function insertNote(body: Element, li: Element, marker: string, before: Element | null): void {
  const document = body.ownerDocument;
  let first = li.firstElementChild;
  if (first?.localName !== 'p') {
    first = document.createElement('p');
    li.prepend(first);
  }
  if (marker !== '') first.prepend(document.createTextNode(`${marker} `));
  for (const block of Array.from(li.childNodes)) body.insertBefore(block, before);
}

/** Links to a place inside the file (`#bookmark`, a table of contents) keep their text only (F56). */
export function unwrapInternalLinks(body: Element): void {
  for (const link of Array.from(body.querySelectorAll('a[href]'))) {
    if ((link.getAttribute('href') ?? '').startsWith('#')) link.replaceWith(...Array.from(link.childNodes));
  }
}
