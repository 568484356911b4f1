/**
 * Code comments cite documents of this repository only: every `docs/….md#section` named in the
 * source must exist, with that heading (GitHub's anchors), and no comment cites a text the
 * repository does not hold (the old design notes, style guide, specification or tracker tickets).
 * docs/conventions.md#rule-12-comments-say-why.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const scanned = ['apps', 'packages', 'e2e', 'bench', 'scripts', 'eslint.config.js'];
const skipped = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', 'screenshots', 'history']);
const sourceFile = /\.(ts|tsx|js|mjs|cjs|css|sql|html)$/;

function sourceFiles(entry: string): string[] {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (sourceFile.test(entry)) return [entry];
  return readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    if (skipped.has(e.name)) return [];
    const rel = path.join(entry, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return sourceFile.test(e.name) ? [rel] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor of a markdown file, repeated headings numbered as GitHub does (`-1`, `-2`). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = slugOf(m[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

const citation = /\bdocs\/[\w./-]*?\.md(?:#[\p{L}\p{N}_-]+)?/gu;
const foreign = /\bDESIGN(?:\.md)?\b(?!_)|\bSTYLE(?:\.md)? rules?\b|\bspec part \d|\bspec\/DESIGN|\b[Ii]ssues? \d+/g;

describe('citations in the source', () => {
  const files = scanned.flatMap(sourceFiles);
  const anchorCache = new Map<string, Set<string> | null>();
  const anchors = (doc: string) => {
    if (!anchorCache.has(doc)) {
      const full = path.join(root, doc);
      anchorCache.set(doc, existsSync(full) ? anchorsOf(readFileSync(full, 'utf8')) : null);
    }
    return anchorCache.get(doc)!;
  };

  it('name documents and sections that exist', () => {
    expect(files.length).toBeGreaterThan(300);
    const broken: string[] = [];
    let count = 0;
    for (const file of files) {
      const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const [cited] of line.matchAll(citation)) {
          count += 1;
          const [doc, anchor] = cited.split('#') as [string, string | undefined];
          const known = anchors(doc);
          if (!known) broken.push(`${file}:${i + 1} ${cited}: no such file`);
          else if (anchor && !known.has(anchor)) broken.push(`${file}:${i + 1} ${cited}: no such section`);
        }
      });
    }
    expect(count).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });

  it('cite no document the repository does not hold', () => {
    const self = path.relative(root, import.meta.filename);
    const foreignCitations = files
      .filter((file) => file !== self)
      .flatMap((file) =>
        readFileSync(path.join(root, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => [...line.matchAll(foreign)].map((m) => `${file}:${i + 1} ${m[0]}`)),
      );
    expect(foreignCitations).toEqual([]);
  });

  it('anchors follow GitHub', () => {
    const md = '# A\n## The 18+ gate\n## `npm run cluster`: several processes\n```\n# not\n```\n## Rules\n## Rules';
    expect([...anchorsOf(md)]).toEqual(['a', 'the-18-gate', 'npm-run-cluster-several-processes', 'rules', 'rules-1']);
  });
});
