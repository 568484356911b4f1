/**
 * Build steps of the web app beyond Vite's own:
 * - `bundleReport`: writes dist/bundle-report.json — for the entry and for every lazily loaded
 *   page, the JS and CSS it needs before it can draw (its chunk plus everything those chunks
 *   import statically, gzip sizes), and what the entry chunk carries, by package — and prints
 *   the per-page summary. The overlay build (vite.overlay.config.ts) adds its pages to the same
 *   file under `overlays`, and fails when one needs more initial JS than its budget.
 * - `iconModules`: makes each react-icons icon its own module, so a chunk carries the icons its
 *   pages use rather than every icon of the app (a set's index is one module, which a bundler
 *   cannot split between chunks) — one copy per importing file, so an icon two pages share goes
 *   into each page's chunk instead of a file of its own (a few hundred bytes against a request).
 * - `zodWithoutJsonSchema`: leaves zod's JSON Schema generator out of the site's build (the browser
 *   never converts a schema to JSON Schema; ~5 KB gzip on every page that loads zod).
 * - `precompress`: writes a `.br` and a `.gz` beside every text asset of 1 KB or more (not yet
 *   compressed: the overlay build writes beside the site's), so the server sends them compressed without compressing on each request
 *   (@fastify/static `preCompressed`).
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Manifest, Plugin } from 'vite';
import { manifestKeyOf, overBudget, pageLoads, routesOf, type Budget } from './bundle-budget';

interface ChunkInfo {
  fileName: string;
  imports: string[];
  css: string[];
  code: string;
  facade: string | null;
  isEntry: boolean;
  dynamicEntry: boolean;
  modules: Record<string, number>;
}

const require = createRequire(import.meta.url);

const gzipKb = (text: string | Uint8Array) => gzipSync(text, { level: 9 }).length / 1024;

function packageOf(id: string): string {
  const at = id.lastIndexOf('node_modules/');
  if (at < 0) return id.includes('/packages/common/') ? '@kickback/common' : 'app';
  const rest = id.slice(at + 'node_modules/'.length).split('/');
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
}

export interface BundleReportOptions {
  /** The report's section for this build's pages: `pages` (the site) or `overlays`, merged into the site's report. */
  section?: 'pages' | 'overlays';
  /** Names to report pages under, by their module's file name (e.g. the route). */
  names?: Record<string, string>;
  /** Fail the build when a page's initial JS is above this many KB gzip. */
  budgetJsKb?: number;
  /** Fail the build when the entry's first load carries one of these packages. */
  notInEntry?: string[];
  /**
   * The site's per-route first load (from the build manifest, `build.manifest: true`): the route
   * table's source file (relative to the root), the budget every public route must fit, and the
   * other routes held to it too. Written under `routes` in the report.
   */
  routeBudget?: { routesFile: string; budget: Budget; alsoRoutes?: string[] };
}

export function bundleReport({
  section = 'pages',
  names = {},
  budgetJsKb,
  notInEntry = [],
  routeBudget,
}: BundleReportOptions = {}): Plugin {
  let outDir = 'dist';
  let root = '.';
  let manifestFile: string | null = null;
  return {
    name: 'kickback-bundle-report',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      root = config.root;
      const m = config.build.manifest;
      manifestFile = m === true ? '.vite/manifest.json' : typeof m === 'string' ? m : null;
    },
    writeBundle(_options, bundle) {
      if (!routeBudget) return;
      const asset = manifestFile ? bundle[manifestFile] : undefined;
      if (!asset || asset.type !== 'asset') {
        this.error('The route budget reads the build manifest: set build.manifest to true');
      }
      const manifest = JSON.parse(String(asset.source)) as Manifest;
      const gzipBytes = (file: string) => {
        const item = bundle[file];
        if (!item) return 0;
        return gzipSync(item.type === 'chunk' ? item.code : item.source, { level: 9 }).length;
      };
      const table = routesOf(
        readFileSync(path.join(root, routeBudget.routesFile), 'utf8'),
        path.dirname(routeBudget.routesFile),
      );
      const held = table.filter((r) => r.isPublic || routeBudget.alsoRoutes?.includes(r.path));
      if (!held.length) this.error(`No routes found in ${routeBudget.routesFile}`);
      const pages: Record<string, string | null> = { '(entry)': null };
      for (const r of held) pages[r.path] = manifestKeyOf(manifest, r.module);
      const loads = pageLoads(manifest, pages, gzipBytes);
      const reportFile = path.join(outDir, 'bundle-report.json');
      const report = existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as object) : {};
      writeFileSync(reportFile, JSON.stringify({ ...report, routeBudget: routeBudget.budget, routes: loads }, null, 2));
      console.log(
        `\nFirst load per route: JS before it draws and files (budget ${routeBudget.budget.jsKb} KB gzip, ${routeBudget.budget.files} files):`,
      );
      console.log(
        Object.entries(loads)
          .sort((a, b) => b[1].jsGzipKb - a[1].jsGzipKb)
          .map(([name, l]) => `  ${name.padEnd(36)} JS ${l.jsGzipKb} KB, CSS ${l.cssGzipKb} KB gzip, ${l.files} files`)
          .join('\n'),
      );
      const over = overBudget(loads, routeBudget.budget);
      if (over.length) this.error(`Pages over the first-load budget:\n  ${over.join('\n  ')}`);
    },
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkInfo>();
      const cssSource = new Map<string, string>();
      for (const item of Object.values(bundle)) {
        if (item.type === 'asset' && item.fileName.endsWith('.css')) {
          cssSource.set(item.fileName, String(item.source));
        }
        if (item.type !== 'chunk') continue;
        const meta = (item as { viteMetadata?: { importedCss?: Set<string> } }).viteMetadata;
        chunks.set(item.fileName, {
          fileName: item.fileName,
          imports: item.imports,
          css: [...(meta?.importedCss ?? [])],
          code: item.code,
          facade: item.facadeModuleId,
          isEntry: item.isEntry,
          dynamicEntry: item.isDynamicEntry,
          modules: Object.fromEntries(Object.entries(item.modules).map(([id, m]) => [id, m.renderedLength])),
        });
      }
      const closure = (start: string[]): Set<string> => {
        const seen = new Set<string>();
        const stack = [...start];
        while (stack.length) {
          const name = stack.pop()!;
          if (seen.has(name)) continue;
          seen.add(name);
          stack.push(...(chunks.get(name)?.imports ?? []));
        }
        return seen;
      };
      const sizes = (files: Set<string>) => {
        let js = 0;
        let css = 0;
        const cssFiles = new Set<string>();
        for (const f of files) {
          const c = chunks.get(f);
          if (!c) continue;
          js += gzipKb(c.code);
          for (const s of c.css) cssFiles.add(s);
        }
        for (const s of cssFiles) css += gzipKb(cssSource.get(s) ?? '');
        return { files: files.size, jsGzipKb: Math.round(js * 10) / 10, cssGzipKb: Math.round(css * 10) / 10 };
      };
      const entry = [...chunks.values()].find((c) => c.isEntry);
      if (!entry) return;
      const initial = closure([entry.fileName]);
      const pages: Record<string, ReturnType<typeof sizes>> = { '(entry)': sizes(initial) };
      for (const c of chunks.values()) {
        if (!c.dynamicEntry || !c.facade) continue;
        const name = path.basename(c.facade).replace(/\.[tj]sx?$/, '');
        pages[names[name] ?? name] = sizes(new Set([...initial, ...closure([c.fileName])]));
      }
      const byPackage: Record<string, number> = {};
      for (const f of initial) {
        for (const [id, length] of Object.entries(chunks.get(f)?.modules ?? {})) {
          byPackage[packageOf(id)] = (byPackage[packageOf(id)] ?? 0) + length;
        }
      }
      const entryCarries = Object.fromEntries(
        Object.entries(byPackage)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => [k, `${Math.round(v / 102.4) / 10} KB`]),
      );
      const reportFile = path.join(outDir, 'bundle-report.json');
      const report =
        section === 'pages'
          ? { pages, entryCarries }
          : {
              ...(existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as object) : {}),
              [section]: pages,
              [`${section}EntryCarries`]: entryCarries,
            };
      this.emitFile({ type: 'asset', fileName: 'bundle-report.json', source: JSON.stringify(report, null, 2) });
      const lines = Object.entries(pages)
        .sort((a, b) => b[1].jsGzipKb - a[1].jsGzipKb)
        .map(([name, s]) => `  ${name.padEnd(36)} JS ${s.jsGzipKb} KB, CSS ${s.cssGzipKb} KB gzip (${s.files} chunks)`);
      console.log(
        `\nInitial JS and CSS per ${section === 'pages' ? 'page' : 'overlay'} (${path.relative(process.cwd(), reportFile)}):`,
      );
      console.log(lines.join('\n'));
      const unwanted = notInEntry.filter((p) => p in byPackage);
      if (unwanted.length)
        this.error(`The entry's first load carries ${unwanted.join(', ')}: load it with the pages that need it`);
      if (budgetJsKb !== undefined) {
        const over = Object.entries(pages).filter(([name, s]) => name !== '(entry)' && s.jsGzipKb > budgetJsKb);
        if (over.length) {
          this.error(
            `Initial JS over the budget of ${budgetJsKb} KB gzip: ${over.map(([n, s]) => `${n} ${s.jsGzipKb} KB`).join(', ')}`,
          );
        }
      }
    },
  };
}

const iconImport = /import\s*\{([^}]*)\}\s*from\s*['"]react-icons\/(fa6|si)['"];?/g;
const iconPrefix = '\0kickback-icon:';

/**
 * `import { FaSteam } from 'react-icons/fa6'` becomes an import of a module holding FaSteam alone,
 * its code taken from the set's index (react-icons generates one `export function` per icon).
 */
export function iconModules(): Plugin {
  const sets = new Map<string, Map<string, string>>();
  const iconsOf = (set: string): Map<string, string> => {
    let icons = sets.get(set);
    if (!icons) {
      const index = readFileSync(path.join(path.dirname(require.resolve('react-icons')), set, 'index.mjs'), 'utf8');
      icons = new Map();
      for (const m of index.matchAll(/^export function (\w+) \(props\) \{\n[^\n]*\n\};$/gm)) icons.set(m[1]!, m[0]);
      sets.set(set, icons);
    }
    return icons;
  };
  return {
    name: 'kickback-icon-modules',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('node_modules') || !/\.[jt]sx?$/.test(id) || !code.includes('react-icons/')) return null;
      const importer = createHash('sha1').update(id).digest('hex').slice(0, 8);
      const out = code.replace(iconImport, (_all, names: string, set: string) =>
        names
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean)
          .map((n) => {
            const [name, alias] = n.split(/\s+as\s+/);
            return `import { ${name}${alias ? ` as ${alias}` : ''} } from '${iconPrefix}${set}/${name}/${importer}';`;
          })
          .join('\n'),
      );
      return out === code ? null : { code: out, map: null };
    },
    resolveId(id) {
      return id.startsWith(iconPrefix) ? id : null;
    },
    load(id) {
      if (!id.startsWith(iconPrefix)) return null;
      const [set, name] = id.slice(iconPrefix.length).split('/') as [string, string];
      const icon = iconsOf(set).get(name);
      if (!icon) this.error(`react-icons/${set} has no icon ${name}`);
      return `import { GenIcon } from 'react-icons/lib';\n${icon}\n`;
    },
  };
}

const jsonSchemaModule = /(^|\/)(to-json-schema|json-schema-processors)\.js$/;
const jsonSchemaStub = '\0kickback-zod-json-schema:';

/**
 * zod's `to-json-schema.js` and `json-schema-processors.js`, imported by its classic schemas for
 * `schema.toJSONSchema()` and the JSON Schema getters (`minLength`, `format`, …), become a module
 * whose functions say they are not in this build. Parsing does not use them.
 */
export function zodWithoutJsonSchema(): Plugin {
  return {
    name: 'kickback-zod-without-json-schema',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !/[\\/]zod[\\/]v4[\\/]/.test(importer)) return null;
      const m = jsonSchemaModule.exec(source);
      return m ? `${jsonSchemaStub}${m[2]}` : null;
    },
    load(id) {
      if (!id.startsWith(jsonSchemaStub)) return null;
      const names =
        id.slice(jsonSchemaStub.length) === 'to-json-schema'
          ? ['initializeContext', 'handleUnrepresentable', 'processSchema', 'process', 'extractDefs', 'finalize']
          : ['aggregateChecks', 'toJSONSchema', 'allProcessors'];
      return [
        `const off = () => { throw new Error('JSON Schema is not in the web build of zod'); };`,
        ...names.map((n) => `export const ${n} = off;`),
        `export const createToJSONSchemaMethod = () => off;`,
        `export const createStandardJSONSchemaMethod = () => off;`,
      ].join('\n');
    },
  };
}

const compressible = /\.(js|css|html|svg|json|txt|map|webmanifest)$/;

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'kickback-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const full = path.join(dir, name);
          return statSync(full).isDirectory() ? walk(full) : [full];
        });
      for (const file of walk(outDir)) {
        if (!compressible.test(file) || file.endsWith('.map')) continue;
        // The overlay build writes beside the site's: what is already compressed and unchanged stays.
        if (existsSync(`${file}.br`) && statSync(`${file}.br`).mtimeMs >= statSync(file).mtimeMs) continue;
        const source = readFileSync(file);
        if (source.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(source, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
          }),
        );
      }
    },
  };
}
