import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order (by project, the slowest file of each first), with the browser files spread evenly among
 * the others: with a worker per core, a Chromium file then runs beside a server or unit file rather than
 * beside another Chromium, so the run shares the cores without two browsers competing for them.
 */
export class BrowserInterleavingSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const browser = sorted.filter((file) => file.project.name === 'browser');
    const others = sorted.filter((file) => file.project.name !== 'browser');
    if (browser.length === 0 || others.length === 0) return sorted;
    const every = others.length / browser.length;
    const merged: TestSpecification[] = [];
    let next = 0;
    for (const [index, file] of others.entries()) {
      // Browser file n goes in before other file floor(n × every): one Chromium file per `every` others.
      while (next < browser.length && Math.floor(next * every) <= index)
        merged.push(browser[next++] as TestSpecification);
      merged.push(file);
    }
    merged.push(...browser.slice(next));
    return merged;
  }
}
