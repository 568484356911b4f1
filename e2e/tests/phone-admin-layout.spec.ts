/**
 * Admin pages on a phone (390 px): the page itself never scrolls sideways (a wide table scrolls in
 * its own region, which the keyboard reaches), and axe finds nothing serious. The three pages that
 * scrolled: a visually-hidden last column header was placed against the page, past the table's end.
 */
import { DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, screenshot, signIn } from './helpers';

const json = { 'x-requested-with': 'kickback' };
const PHONE = { width: 390, height: 844 };

test('at 390 px the admin tables scroll in their own regions, never the page', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(PHONE);
  await page.goto('/');
  await signIn(page, DEMO_ADMIN, { demo: true });
  const stamp = String(Date.now() % 100000);

  // Rows in the tables these pages have: a support event, a game (the challenges are demo data).
  const support = await page.request.post('/api/admin/support-rewards/simulate', {
    headers: json,
    data: { kind: 'gift', username: `phonefan${stamp}`, units: 3 },
  });
  expect(support.ok(), await support.text()).toBe(true);
  const me = (await (await page.request.get('/api/User/ping', { headers: json })).json()) as { openId: string };
  const game = await page.request.post('/api/DealOrNoDeal/create', {
    headers: json,
    data: { playerUserId: me.openId, isPrivate: false, Amounts: [...DEFAULT_AMOUNTS] },
  });
  expect(game.ok(), await game.text()).toBe(true);

  const pages: Array<[string, string, string]> = [
    ['/ChallengeManagement', 'Challenge Management', 'Challenges'],
    ['/admin/support-rewards', 'Support rewards', 'Support events'],
    ['/createdealornodeal', 'Create Deal Or No Deal', 'Recent Deal or No Deal games'],
  ];
  for (const [url, heading, region] of pages) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(new RegExp(heading, 'i'));
    // The table's scroller (inside a section of the same name, where there is one).
    const table = page.getByRole('region', { name: new RegExp(region, 'i') }).last();
    await expect(table).toBeVisible();
    await expect(table).toHaveAttribute('tabindex', '0');
    const widths = await page.evaluate(() => ({
      document: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(widths.document, `${url} scrolls sideways`).toBeLessThanOrEqual(widths.viewport);
    await expectAccessible(page);
    await screenshot(page, `phone-admin${url.replace(/\//g, '-')}`);
  }
});

test('at 390 px the scroll regions of the hunt, predictions and integrations pages are reachable by keyboard', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize(PHONE);
  await page.goto('/');
  await signIn(page, DEMO_ADMIN, { demo: true });
  for (const url of ['/hunt', '/admin/predictions', '/admin/integrations']) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    // Every element that scrolls sideways is a focusable, named region (axe: scrollable-region-focusable).
    const unreachable = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('main *'))
        .filter((el) => {
          const style = getComputedStyle(el);
          return /(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
        })
        .filter((el) => el.tabIndex < 0 || !el.getAttribute('role') || !(el.getAttribute('aria-label') ?? el.getAttribute('aria-labelledby')))
        .map((el) => el.className),
    );
    expect(unreachable, url).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), url).toBe(true);
    await expectAccessible(page);
  }
});
