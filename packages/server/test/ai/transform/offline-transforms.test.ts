import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  OFFLINE_TRANSFORM_ACTIONS,
  type OfflineTransformAction,
  offlineTransform as transform,
} from '../../../src/ai/transform/offline-transforms.js';
import { loadSpellChecker, type SpellChecker } from '../../../src/ai/transform/spell-checker.js';
import { hostileStrings } from '../../support/workspace-calls.js';

let spell: SpellChecker;
beforeAll(async () => {
  spell = await loadSpellChecker();
});

/** The transform with the loaded spelling checker; the third argument of old calls is gone. */
function offlineTransform(action: OfflineTransformAction, text: string, _unused?: unknown): string {
  return transform(action, text, { spell });
}

const TRANSFORM_ACTIONS = OFFLINE_TRANSFORM_ACTIONS;
type TransformAction = OfflineTransformAction;

const MARKDOWN = [
  '# our  plan',
  '',
  'we  want to utilize the the budget in order to grow. i think its fine',
  '',
  '- first item is ok',
  '1. second   item',
  '> a quote here',
  '',
  '```js',
  "const  x = 'in order to';",
  '```',
  'See `utilize()` and [the site](https://example.com/utilize) now',
].join('\n');

/** The Markdown marker each line starts with (what a transform must keep). */
function markers(text: string): string[] {
  return text.split('\n').map((line) => /^\s*(?:#{1,6} |[-*+] |\d+\. |> |```)?/.exec(line)?.[0] ?? '');
}

function keepsStructure(before: string, after: string): void {
  expect(markers(after)).toEqual(markers(before));
  expect(after).toContain("```js\nconst  x = 'in order to';\n```");
  expect(after).toContain('`utilize()`');
  expect(after).toContain('](https://example.com/utilize)');
}

describe('offlineTransform: the three actions rules can do', () => {
  it('TR2 fix_grammar: spaces, capitals, "i", doubled words, end punctuation; Markdown kept', () => {
    const out = offlineTransform('fix_grammar', MARKDOWN, null);
    keepsStructure(MARKDOWN, out);
    expect(out).toContain('# Our plan\n');
    expect(out).toContain('We want to utilize the budget in order to grow. I think its fine.');
    expect(out).toContain('- First item is ok\n');
    expect(out).toContain('1. Second item');
    expect(out).toContain('> A quote here.');
    expect(offlineTransform('fix_grammar', 'is it ok ?  yes , i.e. fine', null)).toBe(
      'Is it ok? Yes, i.e. fine.',
    );
  });

  it('TR3 simplify: wordy phrases replaced, long sentences split at ; and ", and"', () => {
    const out = offlineTransform('simplify', MARKDOWN, null);
    keepsStructure(MARKDOWN, out);
    expect(out).toContain('we  want to use the the budget to grow.');
    const long =
      'The team will utilize the new tools in order to ship the product on time for the launch, and the budget covers it; the plan also covers hiring two people.';
    expect(offlineTransform('simplify', long, null)).toBe(
      'The team will use the new tools to ship the product on time for the launch. The budget covers it. The plan also covers hiring two people.',
    );
    // Short sentences are not split.
    expect(offlineTransform('simplify', 'Red, and blue; green.', null)).toBe('Red, and blue; green.');
  });

  it('TR4 shorten: deletes filler and hedges, never a sentence; Markdown kept', () => {
    expect(
      offlineTransform(
        'shorten',
        'First one is here. Second one is here. Third one is here. Fourth one is here.',
        null,
      ),
    ).toBe('First one is here. Second one is here. Third one is here. Fourth one is here.');
    expect(offlineTransform('shorten', 'It is really very simple.', null)).toBe('It is simple.');
    const out = offlineTransform('shorten', MARKDOWN, null);
    keepsStructure(MARKDOWN, out);
    expect(out).toContain('# our  plan');
  });

  it('TR1 empty and blank text come back unchanged', () => {
    for (const action of TRANSFORM_ACTIONS) {
      expect(offlineTransform(action, '', null)).toBe('');
      expect(offlineTransform(action, '  \n ', null)).toBe('  \n ');
    }
  });
});

describe('offlineTransform: robustness', () => {
  const actions = fc.constantFrom<TransformAction>(...TRANSFORM_ACTIONS);
  const markdownLine = fc.oneof(
    fc.string(),
    fc.string().map((text) => `# ${text}`),
    fc.string().map((text) => `- ${text}`),
    fc.string().map((text) => `1. ${text}`),
    fc.string().map((text) => `> ${text}`),
    fc.constant('in order to utilize it , and i  think the the plan; is ok'),
    fc.constant("we don't commence. yeah it's great!"),
  );

  it('TR11 never throws and keeps every line marker (fast-check, 600 runs)', () => {
    fc.assert(
      fc.property(
        actions,
        fc.array(markdownLine, { maxLength: 8 }),
        fc.option(fc.string()),
        (action, lines, prompt) => {
          const text = lines.map((line) => line.replace(/[\r\n]/g, ' ')).join('\n');
          const out = offlineTransform(action, text, prompt);
          expect(typeof out).toBe('string');
          const before = markers(text).filter((marker) => marker.trim() !== '');
          const after = markers(out).filter((marker) => marker.trim() !== '');
          expect(after.slice(0, before.length)).toEqual(before);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('TR12 a second run never grows the text (fast-check, 500 runs)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<TransformAction>(...TRANSFORM_ACTIONS),
        fc.array(markdownLine, { maxLength: 6 }),
        (action, lines) => {
          const once = offlineTransform(action, lines.join('\n'), null);
          const twice = offlineTransform(action, once, null);
          const thrice = offlineTransform(action, twice, null);
          expect(thrice.length).toBeLessThanOrEqual(twice.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('TR11 hostile strings, lone surrogates and 1 MB of text never throw', () => {
    const samples = [
      ...hostileStrings,
      '\uD800',
      'a\uDC00b. c',
      '\uE000\uE0010\uE001 in order to',
      '`'.repeat(5000),
    ];
    for (const action of TRANSFORM_ACTIONS) {
      for (const sample of samples) expect(typeof offlineTransform(action, sample, sample)).toBe('string');
    }
    const big = 'we  want to utilize the the budget, and i think so; really. '.repeat(18_000);
    expect(big.length).toBeGreaterThan(1_000_000);
    for (const action of TRANSFORM_ACTIONS) {
      expect(offlineTransform(action, big, null).length).toBeGreaterThan(0);
    }
  });

  it('TR1 is deterministic', () => {
    for (const action of TRANSFORM_ACTIONS) {
      expect(offlineTransform(action, MARKDOWN, null)).toBe(offlineTransform(action, MARKDOWN, null));
    }
  });
});
