import { describe, expect, it } from 'vitest';
import { loadScript, ScriptLoadError } from '../src/pricing/load-script';

/** Just enough of a document: scripts are kept, never fetched; the test fires their load/error events. */
function fakeDocument() {
  const scripts: HTMLScriptElement[] = [];
  const doc = {
    createElement: (tag: string) => document.createElement(tag),
    head: { append: (script: HTMLScriptElement) => scripts.push(script) },
  } as unknown as Document;
  return { doc, scripts };
}

function fakeClock() {
  const timers = new Map<number, () => void>();
  let next = 1;
  return {
    setTimeout: (callback: () => void) => {
      timers.set(next, callback);
      return next++;
    },
    clearTimeout: (handle: unknown) => timers.delete(handle as number),
    fireAll: () => {
      for (const [id, callback] of timers) {
        timers.delete(id);
        callback();
      }
    },
    pending: () => timers.size,
  };
}

let counter = 0;
const uniqueSrc = () => `https://cdn.test/script-${++counter}.js`;

describe('loadScript', () => {
  it('adds one async script and resolves when it loads; later calls share it', async () => {
    const { doc, scripts } = fakeDocument();
    const clock = fakeClock();
    const src = uniqueSrc();
    const first = loadScript(src, { document: doc, ...clock });
    const second = loadScript(src, { document: doc, ...clock });
    expect(second).toBe(first);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.src).toBe(src);
    expect(scripts[0]?.async).toBe(true);
    scripts[0]?.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBeUndefined();
    expect(clock.pending()).toBe(0);
  });

  it('rejects with a ScriptLoadError when the script fails, and tries again on the next call', async () => {
    const { doc, scripts } = fakeDocument();
    const clock = fakeClock();
    const src = uniqueSrc();
    const first = loadScript(src, { document: doc, ...clock });
    scripts[0]?.dispatchEvent(new Event('error'));
    await expect(first).rejects.toMatchObject({ name: 'ScriptLoadError', reason: 'error', src });
    const retry = loadScript(src, { document: doc, ...clock });
    expect(retry).not.toBe(first);
    expect(scripts).toHaveLength(2);
  });

  it('gives up after the time-out when the request hangs', async () => {
    const { doc } = fakeDocument();
    const clock = fakeClock();
    const pending = loadScript(uniqueSrc(), { document: doc, ...clock });
    clock.fireAll();
    await expect(pending).rejects.toBeInstanceOf(ScriptLoadError);
    await expect(pending).rejects.toMatchObject({ reason: 'timeout' });
  });
});
