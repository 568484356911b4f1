import { describe, expect, it } from 'vitest';
import type { Manifest } from 'vite';
import { firstLoadFiles, manifestKeyOf, overBudget, pageLoads, routesOf } from './bundle-budget';

/** A build's manifest: the entry, two pages, a chunk they share, a lazy dialog and a font. */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_runtime.js'],
    dynamicImports: ['src/features/home/home-page.tsx', 'src/features/store/store-page.tsx'],
    css: ['assets/index.css'],
    assets: ['assets/inter.woff2', 'assets/logo.svg'],
  },
  '_runtime.js': { file: 'assets/runtime.js' },
  '_zod.js': { file: 'assets/zod.js', imports: ['_runtime.js'] },
  'src/features/home/home-page.tsx': {
    file: 'assets/home-page.js',
    src: 'src/features/home/home-page.tsx',
    isDynamicEntry: true,
    imports: ['index.html', '_zod.js'],
    css: ['assets/home.css'],
  },
  'src/features/store/store-page.tsx': {
    file: 'assets/store-page.js',
    src: 'src/features/store/store-page.tsx',
    isDynamicEntry: true,
    imports: ['index.html', '_zod.js'],
    dynamicImports: ['src/features/store/purchase-dialog.tsx'],
  },
  'src/features/store/purchase-dialog.tsx': {
    file: 'assets/purchase-dialog.js',
    isDynamicEntry: true,
    imports: ['_zod.js'],
  },
};

const kb = 1024;
/** Gzip sizes by file: the entry 100 KB, zod 20 KB, each page 10 KB, the dialog 50 KB. */
const sizes: Record<string, number> = {
  'assets/index.js': 99 * kb,
  'assets/runtime.js': 1 * kb,
  'assets/zod.js': 20 * kb,
  'assets/home-page.js': 10 * kb,
  'assets/store-page.js': 10 * kb,
  'assets/purchase-dialog.js': 50 * kb,
  'assets/index.css': 30 * kb,
  'assets/home.css': 2 * kb,
};
const gzip = (file: string) => sizes[file] ?? 0;
const pages = {
  '(entry)': null,
  '/': 'src/features/home/home-page.tsx',
  '/store': 'src/features/store/store-page.tsx',
};

describe('first load per page (docs/benchmarks.md#first-load-budget-per-page)', () => {
  it('counts the entry, the page, their static imports, their CSS and fonts — not what loads later', () => {
    expect(firstLoadFiles(manifest, ['index.html', 'src/features/store/store-page.tsx'])).toEqual({
      js: ['assets/index.js', 'assets/runtime.js', 'assets/store-page.js', 'assets/zod.js'],
      css: ['assets/index.css'],
      fonts: ['assets/inter.woff2'],
    });
    const loads = pageLoads(manifest, pages, gzip);
    expect(loads['(entry)']).toMatchObject({ jsGzipKb: 100, cssGzipKb: 30, files: 4 });
    expect(loads['/']).toMatchObject({ jsGzipKb: 130, cssGzipKb: 32, files: 7 });
    // The purchase dialog (50 KB) is a dynamic import: not in the store's first load.
    expect(loads['/store']).toMatchObject({ jsGzipKb: 130, files: 6 });
  });

  it('passes pages at the limits', () => {
    expect(overBudget(pageLoads(manifest, pages, gzip), { jsKb: 130, files: 7 })).toEqual([]);
  });

  it('fails a page above the JS limit, naming it, its size and its file count', () => {
    expect(overBudget(pageLoads(manifest, pages, gzip), { jsKb: 129.9, files: 7 })).toEqual([
      '/: 130 KB gzip of JS in 7 files before it draws (budget 129.9 KB, 7 files)',
      '/store: 130 KB gzip of JS in 6 files before it draws (budget 129.9 KB, 7 files)',
    ]);
  });

  it('fails a page above the file limit', () => {
    expect(overBudget(pageLoads(manifest, pages, gzip), { jsKb: 170, files: 6 })).toEqual([
      '/: 130 KB gzip of JS in 7 files before it draws (budget 170 KB, 6 files)',
    ]);
  });

  it('refuses a page whose chunk is not in the manifest, rather than counting nothing', () => {
    expect(() => pageLoads(manifest, { '/gone': 'src/features/gone.tsx' }, gzip)).toThrow(/not in the build manifest/);
    expect(() => manifestKeyOf(manifest, 'src/features/gone')).toThrow(/no chunk/);
    expect(manifestKeyOf(manifest, 'src/features/home/home-page')).toBe('src/features/home/home-page.tsx');
  });

  it('reads the route table: each path, its page module and whether it is public', () => {
    const source = `
      { path: '/', page: lazy(() => import('../features/home/home-page')) },
      {
        path: '/giveaway',
        page: lazy(() => import('../features/giveaway/giveaway-page')),
        name: 'Giveaway',
        roles: staffOnly,
      },`;
    expect(routesOf(source, 'src/app')).toEqual([
      { path: '/', module: 'src/features/home/home-page', isPublic: true },
      { path: '/giveaway', module: 'src/features/giveaway/giveaway-page', isPublic: false },
    ]);
  });

  it('refuses a route table it cannot read whole, rather than leaving a page out of the budget', () => {
    const source = `
      { path: '/', page: lazy(() => import('../features/home/home-page')) },
      { page: lazy(() => import('../features/store/store-page')), path: '/store' },`;
    expect(() => routesOf(source, 'src/app')).toThrow(/read 1 of the 2 routes/);
  });
});
