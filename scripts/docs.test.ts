/**
 * The repository explains itself: the README stays a first screen (at most 12 KB, no table line
 * over 160 characters) that links into docs/, and every server feature module has a page in
 * docs/features/ that names it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('the README', () => {
  const readme = read('README.md');

  it('is at most 12 KB and has no table line over 160 characters', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024);
    expect(readme.split('\n').filter((l) => l.startsWith('|') && l.length > 160)).toEqual([]);
  });

  it('says how to run, test and deploy, and links into docs/', () => {
    for (const heading of ['## Quick start', '## Tests', '## Everyday commands', '## Put it on stream']) {
      expect(readme).toContain(heading);
    }
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('docs/architecture.md');
  });
});

describe('docs/features', () => {
  it('names every feature module of the server in a page', () => {
    const modules = readdirSync(path.join(root, 'apps/server/src/modules'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    const pages = readdirSync(path.join(root, 'docs/features'))
      .map((f) => read(path.join('docs/features', f)))
      .join('\n');
    expect(modules.filter((m) => !pages.includes(`apps/server/src/modules/${m}\``))).toEqual([]);
  });
});
