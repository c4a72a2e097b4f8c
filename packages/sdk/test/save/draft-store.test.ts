import { clearStoredDrafts, createStorageDraftStore, type DraftStorage, draftKey } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { readCorpusFile } from '../support/corpus.js';
import { type Doc, FakeStorage, isDoc } from './support/save-harness.js';

const KEY = 'planwright:draft:document:doc-1';
const parse = (value: unknown): Doc | null => (isDoc(value) ? { text: value.text } : null);
const naughty = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];

function storeOver(storage: () => DraftStorage | null) {
  return createStorageDraftStore<Doc>({ storage, key: KEY, parse });
}

describe('S18 storage draft store', () => {
  it('S18: writes, reads back and clears a draft under its key', () => {
    const storage = new FakeStorage();
    const store = storeOver(() => storage);
    expect(store.read()).toBeNull();
    store.write({ content: { text: 'plan' }, baseRevision: 3, savedAt: 1234 });
    expect(JSON.parse(storage.items.get(KEY) ?? '')).toEqual({
      v: 1,
      content: { text: 'plan' },
      baseRevision: 3,
      savedAt: 1234,
    });
    expect(store.read()).toEqual({ content: { text: 'plan' }, baseRevision: 3, savedAt: 1234 });
    store.clear();
    expect(storage.items.has(KEY)).toBe(false);
    expect(store.read()).toBeNull();
  });

  it('S18: keeps a null base revision', () => {
    const storage = new FakeStorage();
    const store = storeOver(() => storage);
    store.write({ content: { text: 'x' }, baseRevision: null, savedAt: 1 });
    expect(store.read()?.baseRevision).toBeNull();
  });

  it.each([
    ['corrupt JSON', '{"v":1,"content":'],
    ['JSON that is not an object', '"text"'],
    ['null', 'null'],
    ['another format version', JSON.stringify({ v: 2, content: { text: 'x' }, baseRevision: 1, savedAt: 1 })],
    ['a bad base revision', JSON.stringify({ v: 1, content: { text: 'x' }, baseRevision: 0, savedAt: 1 })],
    [
      'a fractional base revision',
      JSON.stringify({ v: 1, content: { text: 'x' }, baseRevision: 1.5, savedAt: 1 }),
    ],
    ['a missing savedAt', JSON.stringify({ v: 1, content: { text: 'x' }, baseRevision: 1 })],
    [
      'content parse refuses',
      JSON.stringify({ v: 1, content: { html: '<p>' }, baseRevision: 1, savedAt: 1 }),
    ],
    [
      'a prototype-pollution attempt',
      '{"v":1,"__proto__":{"polluted":true},"content":7,"baseRevision":1,"savedAt":1}',
    ],
  ])('S18: %s reads as no draft', (_name, stored) => {
    const storage = new FakeStorage();
    storage.items.set(KEY, stored);
    expect(storeOver(() => storage).read()).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('S18: no storage, or storage that throws, never throws', () => {
    const missing = storeOver(() => null);
    expect(missing.read()).toBeNull();
    expect(() => missing.write({ content: { text: 'x' }, baseRevision: 1, savedAt: 1 })).not.toThrow();
    expect(() => missing.clear()).not.toThrow();

    const blocked = storeOver(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    expect(blocked.read()).toBeNull();
    expect(() => blocked.write({ content: { text: 'x' }, baseRevision: 1, savedAt: 1 })).not.toThrow();
    expect(() => blocked.clear()).not.toThrow();

    const storage = new FakeStorage();
    storage.failing.add('getItem').add('setItem').add('removeItem');
    const failing = storeOver(() => storage);
    expect(failing.read()).toBeNull();
    expect(() => failing.write({ content: { text: 'x' }, baseRevision: 1, savedAt: 1 })).not.toThrow();
    expect(() => failing.clear()).not.toThrow();
  });

  it('S18: content JSON cannot hold is skipped without throwing', () => {
    const storage = new FakeStorage();
    const store = createStorageDraftStore<unknown>({ storage: () => storage, key: KEY, parse: (v) => v });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => store.write({ content: cyclic, baseRevision: 1, savedAt: 1 })).not.toThrow();
    expect(() => store.write({ content: 10n, baseRevision: 1, savedAt: 1 })).not.toThrow();
    expect(storage.items.size).toBe(0);
  });

  it('S18: a write over quota leaves the previous draft readable', () => {
    const storage = new FakeStorage();
    const store = storeOver(() => storage);
    store.write({ content: { text: 'older' }, baseRevision: 1, savedAt: 1 });
    storage.failing.add('setItem');
    store.write({ content: { text: 'newer' }, baseRevision: 1, savedAt: 2 });
    expect(store.read()?.content).toEqual({ text: 'older' });
  });

  it('S18: every naughty string survives the round trip as content', () => {
    const storage = new FakeStorage();
    const store = storeOver(() => storage);
    for (const text of naughty) {
      store.write({ content: { text }, baseRevision: 2, savedAt: 3 });
      expect(store.read()?.content.text).toBe(text);
    }
  });

  it('S18: the storage is looked up at each use', () => {
    let current: FakeStorage | null = null;
    const store = storeOver(() => current);
    store.write({ content: { text: 'lost' }, baseRevision: 1, savedAt: 1 });
    current = new FakeStorage();
    store.write({ content: { text: 'kept' }, baseRevision: 1, savedAt: 1 });
    expect(store.read()?.content).toEqual({ text: 'kept' });
  });
});

describe('S18 draft keys', () => {
  it('S18: names the resource type and uuid', () => {
    expect(draftKey('document', '0b1c')).toBe('planwright:draft:document:0b1c');
    expect(draftKey('blueprint', '0b1c')).toBe('planwright:draft:blueprint:0b1c');
  });

  it('S18: refuses a blank uuid and an unknown type', () => {
    expect(() => draftKey('document', '')).toThrow(TypeError);
    expect(() => draftKey('document', ' \t\n')).toThrow(TypeError);
    expect(() => draftKey('document', undefined as unknown as string)).toThrow(TypeError);
    expect(() => draftKey('chat' as 'document', 'x')).toThrow(TypeError);
  });

  it('S18: naughty uuids give distinct keys, or a TypeError when blank', () => {
    const keys = new Set<string>();
    for (const uuid of naughty) {
      if (uuid.trim() === '') {
        expect(() => draftKey('document', uuid)).toThrow(TypeError);
        continue;
      }
      const key = draftKey('document', uuid);
      expect(key).toBe(`planwright:draft:document:${uuid}`);
      keys.add(key);
    }
    expect(keys.size).toBe(new Set(naughty.filter((uuid) => uuid.trim() !== '')).size);
  });
});

describe('S25 clearing every draft at sign-out', () => {
  it('removes the drafts of every resource and nothing else', () => {
    const storage = new FakeStorage();
    storage.setItem(draftKey('document', 'a'), '{}');
    storage.setItem(draftKey('blueprint', 'b'), '{}');
    storage.setItem('planwright:sidebar:document:a', '["s1"]');
    storage.setItem('sessionToken', 't');
    expect(clearStoredDrafts(() => storage)).toBe(2);
    expect([...storage.items.keys()].sort()).toEqual(['planwright:sidebar:document:a', 'sessionToken']);
  });

  it('never throws: no storage, or storage that refuses', () => {
    expect(clearStoredDrafts(() => null)).toBe(0);
    expect(
      clearStoredDrafts(() => {
        throw new DOMException('denied', 'SecurityError');
      }),
    ).toBe(0);
    const storage = new FakeStorage();
    storage.setItem(draftKey('document', 'a'), '{}');
    storage.failing.add('removeItem');
    expect(clearStoredDrafts(() => storage)).toBe(0);
  });
});

describe('S17 peeking at a stored draft', () => {
  const store = (storage: FakeStorage) =>
    createStorageDraftStore<Doc>({
      storage: () => storage,
      key: draftKey('document', 'd'),
      parse: (v) => (isDoc(v) ? v : null),
    });

  it('reads savedAt from the start of what write stored, without the content', () => {
    const storage = new FakeStorage();
    const drafts = store(storage);
    expect(drafts.peekSavedAt?.()).toBeNull();
    drafts.write({ content: { text: 'x'.repeat(100_000) }, baseRevision: 3, savedAt: 1_795_000_000_123 });
    expect(drafts.peekSavedAt?.()).toBe(1_795_000_000_123);
  });

  it('answers null for anything else stored there, and never throws', () => {
    const storage = new FakeStorage();
    const drafts = store(storage);
    for (const text of [
      '',
      'garbage',
      '{"v":1,"content":{},"savedAt":5}',
      '{"v":2,"savedAt":5,',
      '{"v":1,"savedAt":1e999,',
    ]) {
      storage.setItem(draftKey('document', 'd'), text);
      expect(drafts.peekSavedAt?.()).toBeNull();
    }
    storage.failing.add('getItem');
    expect(drafts.peekSavedAt?.()).toBeNull();
  });
});
