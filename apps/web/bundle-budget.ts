/**
 * The first-load budget of the site's pages (docs/benchmarks.md#first-load-budget-per-page): from
 * Vite's build manifest, what the browser fetches before a page can draw — the entry chunk, the
 * page's lazy chunk, every chunk those import statically, their CSS and the fonts those carry — and
 * the check that fails the build when a page needs more JS (gzip) or more files than the budget.
 * Pure functions over the manifest, so a test can hand them a fabricated one.
 */
import type { Manifest } from 'vite';

export interface Budget {
  /** Most JS a page may need before it draws, KB gzip. */
  jsKb: number;
  /** Most files (JS, CSS, fonts) a page may need before it draws. */
  files: number;
}

export interface PageLoad {
  /** JS before it draws, KB gzip (one decimal). */
  jsGzipKb: number;
  cssGzipKb: number;
  /** JS + CSS + font files fetched before it draws. */
  files: number;
  js: string[];
  css: string[];
  fonts: string[];
}

const isFont = (file: string) => /\.(woff2?|ttf|otf|eot)$/.test(file);
const round = (kb: number) => Math.round(kb * 10) / 10;

/** The files of the chunks `keys` (manifest keys) and of every chunk they import statically. */
export function firstLoadFiles(manifest: Manifest, keys: readonly string[]): Pick<PageLoad, 'js' | 'css' | 'fonts'> {
  const seen = new Set<string>();
  const stack = [...keys];
  const js: string[] = [];
  const css = new Set<string>();
  const fonts = new Set<string>();
  while (stack.length) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`bundle budget: ${key} is not in the build manifest`);
    if (chunk.file.endsWith('.js')) js.push(chunk.file);
    for (const c of chunk.css ?? []) css.add(c);
    for (const a of chunk.assets ?? []) if (isFont(a)) fonts.add(a);
    stack.push(...(chunk.imports ?? []));
  }
  return { js: js.sort(), css: [...css].sort(), fonts: [...fonts].sort() };
}

/**
 * Each page's first load: `pages` maps a page's name (its route) to its lazy chunk's manifest key
 * (or null for the entry alone); `gzipBytes` gives a file's gzip size.
 */
export function pageLoads(
  manifest: Manifest,
  pages: Readonly<Record<string, string | null>>,
  gzipBytes: (file: string) => number,
): Record<string, PageLoad> {
  const entry = Object.entries(manifest).find(([, c]) => c.isEntry)?.[0];
  if (!entry) throw new Error('bundle budget: the build manifest has no entry');
  const loads: Record<string, PageLoad> = {};
  for (const [name, key] of Object.entries(pages)) {
    const files = firstLoadFiles(manifest, key ? [entry, key] : [entry]);
    const kb = (list: string[]) => round(list.reduce((sum, f) => sum + gzipBytes(f), 0) / 1024);
    loads[name] = {
      jsGzipKb: kb(files.js),
      cssGzipKb: kb(files.css),
      files: files.js.length + files.css.length + files.fonts.length,
      ...files,
    };
  }
  return loads;
}

/** One message per page over the budget (empty when every page fits). */
export function overBudget(loads: Readonly<Record<string, PageLoad>>, budget: Budget): string[] {
  return Object.entries(loads)
    .filter(([, l]) => l.jsGzipKb > budget.jsKb || l.files > budget.files)
    .map(
      ([name, l]) =>
        `${name}: ${l.jsGzipKb} KB gzip of JS in ${l.files} files before it draws ` +
        `(budget ${budget.jsKb} KB, ${budget.files} files)`,
    );
}

/**
 * The site's routes from the route table's source (apps/web/src/app/routes.tsx): each entry's path,
 * the module its `lazy(() => import(...))` loads (relative to the web app's root) and whether it
 * declares `roles` (absent = public).
 */
export function routesOf(source: string, tableDir: string): Array<{ path: string; module: string; isPublic: boolean }> {
  const found: Array<{ path: string; module: string; isPublic: boolean }> = [];
  const entry = /\{\s*path:\s*'([^']+)',\s*page:\s*lazy\(\(\)\s*=>\s*import\('([^']+)'\)\)([^}]*)\}/g;
  for (const m of source.matchAll(entry)) {
    const module = joinPath(tableDir, m[2]!);
    found.push({ path: m[1]!, module, isPublic: !/\broles:/.test(m[3]!) });
  }
  // A route written another way would escape the budget: refuse rather than skip it.
  const pages = source.match(/lazy\(\(\)\s*=>\s*import\(/g)?.length ?? 0;
  if (found.length !== pages) {
    throw new Error(
      `bundle budget: read ${found.length} of the ${pages} routes: write each as { path, page: lazy(...), ... }`,
    );
  }
  return found;
}

function joinPath(dir: string, relative: string): string {
  const parts = dir.split('/').filter(Boolean);
  for (const p of relative.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.') parts.push(p);
  }
  return parts.join('/');
}

/** The manifest key of a module named without its extension (`src/features/home/home-page`). */
export function manifestKeyOf(manifest: Manifest, module: string): string {
  const key = ['.tsx', '.ts', '.jsx', '.js'].map((ext) => module + ext).find((k) => k in manifest);
  if (!key) throw new Error(`bundle budget: no chunk in the build manifest for ${module}`);
  return key;
}
