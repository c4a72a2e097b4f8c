import { decodeCommentAnchor, encodeCommentAnchor } from '@planwright/sdk/live';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';

/** Two replicas of one paragraph of text, kept in sync by hand (as the server would). */
function replicas(text: string) {
  const a = new Y.Doc();
  a.getText('t').insert(0, text);
  const b = new Y.Doc();
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
  const sync = () => {
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  };
  return { a, b, sync };
}

/** The text an anchor covers in `doc` now, or null when it cannot be placed. */
function covered(doc: Y.Doc, anchor: string): string | null {
  const range = decodeCommentAnchor(anchor);
  if (!range) return null;
  const start = Y.createAbsolutePositionFromRelativePosition(range.start, doc);
  const end = Y.createAbsolutePositionFromRelativePosition(range.end, doc);
  if (!start || !end) return null;
  return doc.getText('t').toString().slice(start.index, end.index);
}

describe('comment anchors (docs/teams.md "Comments")', () => {
  it('follow their words through concurrent edits on two replicas: before, after and inside the range', () => {
    const { a, b, sync } = replicas('The market is worth 3 billion a year.');
    const text = a.getText('t');
    const from = text.toString().indexOf('3 billion');
    const anchor = encodeCommentAnchor({
      start: Y.createRelativePositionFromTypeIndex(text, from),
      // The end sticks to the character before it, so typing right after the range stays out of it.
      end: Y.createRelativePositionFromTypeIndex(text, from + '3 billion'.length, -1),
    });
    expect(covered(a, anchor)).toBe('3 billion');
    // At once: one person types before the range, another after it and inside it.
    a.getText('t').insert(0, 'In short: ');
    const bText = b.getText('t');
    bText.insert(bText.toString().indexOf('a year'), 'roughly ');
    bText.insert(bText.toString().indexOf(' billion'), '.2');
    sync();
    expect(a.getText('t').toString()).toBe(b.getText('t').toString());
    expect(covered(a, anchor)).toBe('3.2 billion');
    expect(covered(b, anchor)).toBe('3.2 billion');
    // A replica that joins later from the stored state places it the same.
    const late = new Y.Doc();
    Y.applyUpdate(late, Y.encodeStateAsUpdate(a));
    expect(covered(late, anchor)).toBe('3.2 billion');
  });

  it('round-trips any pair of positions, and reads damaged anchors as null instead of failing', () => {
    const doc = new Y.Doc();
    const text = doc.getText('t');
    text.insert(0, 'x'.repeat(200));
    fc.assert(
      fc.property(fc.nat(200), fc.nat(200), (i, j) => {
        const [from, to] = i <= j ? [i, j] : [j, i];
        const anchor = encodeCommentAnchor({
          start: Y.createRelativePositionFromTypeIndex(text, from),
          end: Y.createRelativePositionFromTypeIndex(text, to),
        });
        const range = decodeCommentAnchor(anchor);
        expect(
          Y.createAbsolutePositionFromRelativePosition(range?.start as Y.RelativePosition, doc)?.index,
        ).toBe(from);
        expect(
          Y.createAbsolutePositionFromRelativePosition(range?.end as Y.RelativePosition, doc)?.index,
        ).toBe(to);
      }),
    );
    for (const damaged of [
      '',
      'AAAA',
      'not base64!',
      '////',
      'AAAAAQ==',
      btoa('\u0000\u0000\u0000\u0009abc'),
    ]) {
      expect(decodeCommentAnchor(damaged), damaged).toBeNull();
    }
  });
});
