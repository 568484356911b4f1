/**
 * Lighthouse (desktop preset) on the site's main pages against the built server: demo data on a
 * fresh in-memory database, the 18+ gate off (the page itself is measured, not the gate), the
 * system Chromium. Each page is measured `--runs` times; prints per run and the median of the
 * performance, accessibility and best-practices scores, LCP, TBT and CLS, then what the last run
 * failed (audits under 1 in those categories, console errors, small tap targets).
 *
 *   npm run bench -- lighthouse [--runs 3] [--pages /,/store,/leaderboard] [--mobile]
 *
 * `npm run build` first. Timing figures on a loaded machine are noisy: the load average is printed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config, type Result } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { processCpuMs, startServer, stopServer } from './lib/server-process';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const runs = Number(arg('runs', '3'));
const pages = arg('pages', '/,/store,/leaderboard').split(',');
const mobile = process.argv.includes('--mobile');
const categories = ['performance', 'accessibility', 'best-practices'] as const;

interface Figures {
  performance: number;
  accessibility: number;
  'best-practices': number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

function figures(lhr: Result): Figures {
  const score = (c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
  const value = (a: string) => lhr.audits[a]?.numericValue ?? NaN;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    lcpMs: Math.round(value('largest-contentful-paint')),
    tbtMs: Math.round(value('total-blocking-time')),
    cls: Math.round(value('cumulative-layout-shift') * 1000) / 1000,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** What a run lost points on: failed audits of the three categories, with their items. */
function failures(lhr: Result): string[] {
  const lines: string[] = [];
  for (const c of categories) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 0.9 || (ref.weight === 0 && c !== 'performance')) continue;
      if (c === 'performance' && ref.weight === 0 && audit.details?.type !== 'opportunity') continue;
      lines.push(`  [${c}] ${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
      const items = (audit.details as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? [];
      for (const item of items.slice(0, 6)) {
        const node = item.node as { snippet?: string } | undefined;
        const sub = (item.subItems as { items?: unknown[] } | undefined)?.items?.[0];
        const what = node?.snippet ?? item.url ?? item.description ?? item.source ?? item.issueType ?? '';
        lines.push(
          `      ${String(typeof what === 'object' ? JSON.stringify(what) : what).slice(0, 160)}${sub ? ` ${JSON.stringify(sub).slice(0, 200)}` : ''}`,
        );
      }
    }
  }
  return lines;
}

const port = 39_000 + Math.floor(Math.random() * 900);
const origin = `http://127.0.0.1:${port}`;
const dir = mkdtempSync(path.join(tmpdir(), 'kb-lighthouse-'));
const siteConfig = path.join(dir, 'site.json');
writeFileSync(siteConfig, JSON.stringify({ ageGate: { enabled: false, text: 'Benchmark: gate off.' } }));

const server = await startServer(port, null, { DEMO_DATA: '1', SITE_CONFIG: siteConfig });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const config: Config | undefined = mobile ? undefined : (desktopConfig as Config);
const load = [loadavg()[0]!];
const serverCpuBefore = processCpuMs(server.pid!);
const results = new Map<string, { figures: Figures[]; last: Result }>();
let serverCpuMs = 0;
try {
  // A first visit warms the server (its read caches, the first compression of each file).
  await fetch(`${origin}/`);
  for (const page of pages) {
    const list: Figures[] = [];
    let last: Result | undefined;
    for (let i = 0; i < runs; i++) {
      const answer = await lighthouse(
        `${origin}${page}`,
        { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...categories] },
        config,
      );
      if (!answer) throw new Error(`Lighthouse gave no result for ${page}`);
      last = answer.lhr;
      list.push(figures(answer.lhr));
      load.push(loadavg()[0]!);
      const f = list.at(-1)!;
      console.log(
        `${page} run ${i + 1}: performance ${f.performance}, accessibility ${f.accessibility}, best practices ${f['best-practices']}, LCP ${f.lcpMs} ms, TBT ${f.tbtMs} ms, CLS ${f.cls}`,
      );
    }
    results.set(page, { figures: list, last: last! });
  }
} finally {
  serverCpuMs = processCpuMs(server.pid!) - serverCpuBefore;
  await chrome.kill();
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `\nLighthouse ${mobile ? 'mobile' : 'desktop'}, median of ${runs} runs (load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}; server CPU ${Math.round(serverCpuMs)} ms in all):`,
);
console.log('| Page | Performance | Accessibility | Best practices | LCP | TBT | CLS |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [page, { figures: list }] of results) {
  const m = (k: keyof Figures) => median(list.map((f) => f[k]));
  console.log(
    `| \`${page}\` | ${m('performance')} | ${m('accessibility')} | ${m('best-practices')} | ${m('lcpMs')} ms | ${m('tbtMs')} ms | ${m('cls')} |`,
  );
}
for (const [page, { last }] of results) {
  const lines = failures(last);
  console.log(`\n${page}: ${lines.length ? 'lost points on' : 'nothing failed'}`);
  if (lines.length) console.log(lines.join('\n'));
}
