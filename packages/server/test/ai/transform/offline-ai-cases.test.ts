import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { corpusPath } from '../../../../../tests/support/corpus-path.mjs';
import { TRANSFORM_ACTIONS } from '../../../src/ai/providers/ai-provider.js';
import { createOfflineProvider } from '../../../src/ai/providers/offline-provider.js';
import {
  isOfflineAction,
  OFFLINE_TRANSFORM_ACTIONS,
  offlineTransform,
} from '../../../src/ai/transform/offline-transforms.js';
import { loadSpellChecker, type SpellChecker } from '../../../src/ai/transform/spell-checker.js';
import { hostileStrings } from '../../support/workspace-calls.js';

const caseSchema = z.object({
  name: z.string(),
  action: z.enum(TRANSFORM_ACTIONS),
  input: z.string(),
  /** A selection from a longer text (text mode), as the bubble's AI actions send it. */
  selection: z.boolean().optional(),
  expected: z.string().optional(),
  refused: z.literal(true).optional(),
});
const { cases } = z
  .object({ cases: z.array(caseSchema).min(40) })
  .parse(JSON.parse(readFileSync(new URL('./__fixtures__/offline-ai-cases.json', import.meta.url), 'utf8')));

let spell: SpellChecker;
beforeAll(async () => {
  spell = await loadSpellChecker();
});

describe('offline transforms: inputs and expected outputs (__fixtures__/offline-ai-cases.json)', () => {
  for (const testCase of cases) {
    it(`TR2–TR15 ${testCase.action}: ${testCase.name}`, async () => {
      if (testCase.refused) {
        expect(isOfflineAction(testCase.action)).toBe(false);
        const provider = createOfflineProvider();
        await expect(
          provider.transform({
            action: testCase.action,
            text: testCase.input,
            customPrompt: null,
            system: '',
            prompt: '',
            signal: new AbortController().signal,
          }),
        ).rejects.toMatchObject({ name: 'AiModelRequiredError' });
        return;
      }
      if (!isOfflineAction(testCase.action)) throw new Error(`${testCase.action} is not offline`);
      const options = { spell, selection: testCase.selection === true };
      const out = offlineTransform(testCase.action, testCase.input, options);
      expect(out).toBe(testCase.expected);
      // A second run changes nothing more (TR12).
      expect(offlineTransform(testCase.action, out, options)).toBe(out);
    });
  }
});

/** Words, lower-cased, apostrophes straightened. */
function words(text: string): string[] {
  return (text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/’/g, "'")
    .match(/[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu) ?? []) as string[];
}

/** The words a spelling correction may bring in, for the texts the property runs over. */
function correctionWords(text: string, checker: SpellChecker): Set<string> {
  const allowed = new Set<string>();
  for (const word of text.match(/\p{L}+/gu) ?? []) {
    const fixed = checker.correction(word);
    if (fixed !== null) for (const part of words(fixed)) allowed.add(part);
  }
  return allowed;
}

/** Real prose and the hostile strings, cut into pieces of a transform's size. */
function corpusTexts(): string[] {
  const plan = readFileSync(corpusPath('business-plans/posthog-business-model.md'), 'utf8');
  const spec = readFileSync(corpusPath('markdown/commonmark-spec-0.31.2.txt'), 'utf8').slice(0, 60_000);
  const pieces = [...plan.split(/\n{2,}/), ...spec.split(/\n{2,}/)].filter((piece) => piece.trim() !== '');
  return [...pieces, ...hostileStrings];
}

describe('offline transforms: nothing invented (properties over the corpus and the hostile strings)', () => {
  const texts = corpusTexts();

  it('TR13 fix_grammar: every output word is an input word or a spelling correction of one', () => {
    for (const text of texts) {
      const out = offlineTransform('fix_grammar', text, { spell });
      const allowed = new Set([...words(text), ...correctionWords(text, spell)]);
      const invented = words(out).filter((word) => !allowed.has(word));
      expect(invented, text.slice(0, 80)).toEqual([]);
    }
  });

  it('TR4 shorten never lengthens and never adds a word', () => {
    for (const text of texts) {
      const out = offlineTransform('shorten', text, { spell });
      expect(out.length, text.slice(0, 80)).toBeLessThanOrEqual(text.length);
      const allowed = new Set(words(text));
      expect(words(out).filter((word) => !allowed.has(word))).toEqual([]);
    }
  });

  it('TR3 simplify adds only the plain words of its table', () => {
    const plain = new Set([
      'use',
      'uses',
      'used',
      'to',
      'because',
      'now',
      'if',
      'before',
      'after',
      'many',
      'most',
    ]);
    const more = ['although', 'about', 'soon', 'for', 'can', 'help', 'start', 'end', 'try', 'also', 'show'];
    for (const word of more) plain.add(word);
    for (const word of ['near', 'daily', 'every']) plain.add(word);
    for (const text of texts) {
      const out = offlineTransform('simplify', text, { spell });
      const allowed = new Set([...words(text), ...plain]);
      expect(
        words(out).filter((word) => !allowed.has(word)),
        text.slice(0, 80),
      ).toEqual([]);
    }
  });

  it('TR10 the offline actions are exactly the three rules can do; the model-backed list is all eight', () => {
    expect([...OFFLINE_TRANSFORM_ACTIONS]).toEqual(['fix_grammar', 'simplify', 'shorten']);
    expect(createOfflineProvider().info.transformActions).toEqual(OFFLINE_TRANSFORM_ACTIONS);
  });
});

describe('offline spelling: long texts', () => {
  it('TR13 a long text is checked to its end: known words do not use up the look-up budget', () => {
    const long = `${'The bakery sells bread to cafés and shops in the city every morning. '.repeat(1500)}We recieve alot.`;
    expect(offlineTransform('fix_grammar', long, { spell }).endsWith('We receive a lot.')).toBe(true);
  });
});

describe('offline spelling: load and call times', () => {
  it('TR14 the dictionary loads once; a call on a paragraph is fast', async () => {
    const again = performance.now();
    expect(await loadSpellChecker()).toBe(spell);
    expect(performance.now() - again).toBeLessThan(50);
    const paragraph = 'Our bakerys recieve alot of orders from teh buisness district every morning. '.repeat(
      10,
    );
    offlineTransform('fix_grammar', paragraph, { spell });
    const started = performance.now();
    for (let i = 0; i < 20; i += 1) offlineTransform('fix_grammar', paragraph, { spell });
    const perCall = (performance.now() - started) / 20;
    // Generous for a shared CI machine; measured about a millisecond (docs/ai.md).
    expect(perCall).toBeLessThan(100);
  });
});
