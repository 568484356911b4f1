/**
 * The main pages do not jump while they load: cumulative layout shift (PerformanceObserver
 * `layout-shift`, shifts without recent input) from navigation until the page has settled stays
 * under 0.05. A signed-out visitor's first load logs no console error.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const pages = ['/', '/store', '/leaderboard', '/Challenges', '/RoobetVip', '/DailyRewards'];
const MAX_CLS = 0.05;

async function measureCls(page: Page, url: string): Promise<{ cls: number; shifts: string[] }> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number; __shifts: string[] };
    w.__cls = 0;
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<
        PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null }> }
      >) {
        if (entry.hadRecentInput) continue;
        w.__cls += entry.value;
        const nodes = (entry.sources ?? []).map((s) => {
          const el = s.node as Element | null | undefined;
          return el && 'className' in el ? `${el.nodeName.toLowerCase()}.${String(el.className).split(' ')[0]}` : '?';
        });
        w.__shifts.push(`${entry.value.toFixed(3)} ${nodes.join(', ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1_000);
  return page.evaluate(() => {
    const w = window as unknown as { __cls: number; __shifts: string[] };
    return { cls: w.__cls, shifts: w.__shifts };
  });
}

for (const url of pages) {
  test(`${url} loads without layout shift (CLS < ${MAX_CLS})`, async ({ page }) => {
    const { cls, shifts } = await measureCls(page, url);
    console.log(`CLS ${url}: ${cls.toFixed(3)}${shifts.length ? ` (${shifts.join('; ')})` : ''}`);
    expect(cls, shifts.join('\n')).toBeLessThan(MAX_CLS);
  });
}

test('a signed-out visitor loads the home page without a console error (no 401 from ping)', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const pinged: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/User/ping')) pinged.push(r.url());
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(pinged).toEqual([]);
  expect(errors).toEqual([]);
});

test('the main pages cause no Content-Security-Policy violation (zod runs without its eval probe)', async ({
  page,
}) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  for (const url of ['/', '/store', '/leaderboard']) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    expect(violations, url).toEqual([]);
  }
});
