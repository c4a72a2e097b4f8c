import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const serverSrc = new URL('../src/', import.meta.url).pathname;
const deploymentDoc = readFileSync(new URL('../../../docs/deployment.md', import.meta.url), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('docs/deployment.md (SO)', () => {
  it('SO5: names every environment variable the server reads', () => {
    const config = readFileSync(join(serverSrc, 'config', 'config.ts'), 'utf8');
    const schema = config.slice(
      config.indexOf('const envSchema'),
      config.indexOf('\n});', config.indexOf('const envSchema')),
    );
    const fromSchema = [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1] as string);
    const elsewhere = sourceFiles(serverSrc).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)].map(
        (match) => match[1] as string,
      ),
    );
    // npm's own variables, read only to find where `npm run admin` was typed.
    const names = [...new Set([...fromSchema, ...elsewhere])].filter((name) => name !== 'INIT_CWD');
    expect(fromSchema.length).toBeGreaterThan(30);
    expect(names.filter((name) => !deploymentDoc.includes(`\`${name}\``))).toEqual([]);
  });
});
