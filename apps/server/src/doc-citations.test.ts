/**
 * Code comments cite documents of this repository only: every `docs/….md#section` named in the
 * source must exist, with that heading (GitHub's anchors), and no comment cites a text the
 * repository does not hold (the old design notes, style guide, specification or tracker tickets).
 * docs/conventions.md#rule-12-comments-say-why.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
/** Everything but docs/ that holds comments: the code, the deployment, CI and the root's config files. */
const scanned = [
  'apps',
  'packages',
  'e2e',
  'bench',
  'scripts',
  'deploy',
  '.ci',
  'eslint.config.js',
  'vitest.config.ts',
  'tsconfig.base.json',
  'package.json',
  'docker-compose.yml',
  'Dockerfile',
  '.env.example',
];
const skipped = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', 'screenshots', 'history']);
/** Files with comments or descriptions: code, styles, SQL, JSON fixtures, shell and YAML, and the named scripts. */
const sourceFile = /\.(ts|tsx|js|mjs|cjs|css|sql|html|json|sh|ya?ml)$|^(Caddyfile|Dockerfile|run)$/;

function sourceFiles(entry: string): string[] {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [entry];
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
/**
 * A text the repository does not hold: the design notes, the style guide, the specification (its
 * parts, sections, `§`), the shared folder, a reference folder, Kick's documentation repository or
 * a tracker ticket (the word issue, PR or ticket followed by its number).
 */
export const foreign = new RegExp(
  [
    String.raw`\bDESIGN(?:\.md)?\b(?!_)`,
    String.raw`\bSTYLE\.md\b|\bSTYLE rules?\b`,
    String.raw`\bspec part \d|\bthe spec\b|(?<![\w./-])spec\/|\b[Ss]ection \d+|§`,
    String.raw`\bshared\/(?:spec|DESIGN|STYLE)\b|\/work\/shared\b|(?<![\w./-])reference\/`,
    String.raw`\bKickDevDocs\b`,
    String.raw`\b(?:[Ii]ssues?|[Tt]ickets?|[Bb]ugs?|PRs?|[Pp]ull requests?)\s*#?\d+`,
  ].join('|'),
  'g',
);

/** The comment part of a line: after `//`, or the whole line in a block comment or a `#` / `--` comment. */
export function commentOf(line: string): string {
  const trimmed = line.trimStart();
  if (/^(?:\/\*|\*|#|<!--|--)/.test(trimmed)) return trimmed;
  const slashes = line.search(/(?<![:'"\w])\/\//);
  return slashes >= 0 ? line.slice(slashes) : '';
}

/**
 * A ticket number in a comment: a hash and digits. Three, four, six or eight digits read as a colour (`#000`,
 * `#212529`), unless a word such as "see" or "fixes" names it.
 */
const ticket = /(?<![\w&#])#(\d+)\b(?![\w-])/g;
export function ticketsIn(comment: string): string[] {
  return [...comment.matchAll(ticket)]
    .filter(
      (m) =>
        ![3, 4, 6, 8].includes(m[1]!.length) ||
        /\b(?:see|fix(?:es|ed)?|closes?|in)\s*$/i.test(comment.slice(0, m.index)),
    )
    .map((m) => m[0]);
}

/** A relative markdown path not under docs/ (`integrations.md`, `events/event-types.md`). */
const markdown = /(?<![\w./-])(?!docs\/|\/)[\w./-]+\.md\b/g;

/**
 * Every outside citation on a line: named documents anywhere, a markdown file the repository does
 * not hold outside docs/, and a ticket number (a hash and digits) in a comment.
 */
export function outsideCitations(line: string): string[] {
  return [
    ...[...line.matchAll(foreign)].map((m) => m[0]),
    ...[...line.matchAll(markdown)].map((m) => m[0]).filter((md) => !existsSync(path.join(root, md))),
    ...ticketsIn(commentOf(line)),
  ];
}

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
          .flatMap((line, i) => outsideCitations(line).map((cited) => `${file}:${i + 1} ${cited}`)),
      );
    expect(foreignCitations).toEqual([]);
  });

  it('tell an outside citation from a colour, an id or a docs/ page', () => {
    const outside = [
      // Numbers interpolated: this file's own lines cite nothing.
      `// Kick sends wrong expiry dates (#${43}).`,
      ` * Kick sends wrong expiry dates (issue ${44}).`,
      '// as integrations.md §7 says',
      '// the payloads of section 7',
      '// see ../shared/spec/part-1.md',
      '// DESIGN.md, STYLE.md',
      '"_source": "KickEngineering/KickDevDocs events/event-types.md"',
      '// reference/kick-api.json',
      `# see #${111}`,
    ];
    for (const line of outside) expect(outsideCitations(line), line).not.toEqual([]);
    const inside = [
      "const dark = '#212529'; // the dialogs' surface, #212529",
      '  color: #111;',
      "  .set({ discordUsername: 'fan#0001' })",
      "  .replace(/'/g, '&#39;');",
      '// docs/integrations.md#kick-chat-over-pusher',
      "import { useSite } from '../../shared/site-context';",
      "await expect(page.getByText('e2e/tests/x.spec.ts')).toBeVisible();",
      'const url = `https://example.test/#5`;',
    ];
    for (const line of inside) expect(outsideCitations(line), line).toEqual([]);
  });

  it('anchors follow GitHub', () => {
    const md = '# A\n## The 18+ gate\n## `npm run cluster`: several processes\n```\n# not\n```\n## Rules\n## Rules';
    expect([...anchorsOf(md)]).toEqual(['a', 'the-18-gate', 'npm-run-cluster-several-processes', 'rules', 'rules-1']);
  });
});
