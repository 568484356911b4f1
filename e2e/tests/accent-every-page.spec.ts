/**
 * Every page the journeys visit stays accessible with the admin's own accent colour (docs/go-live.md
 * #branding-on-the-site): the admin sets a mid pink, just light enough to be accepted, and axe finds
 * nothing serious or critical on the public pages and overlays (a visitor), the viewer's own pages
 * (a signed-in User, the profile dialog open) and the admin's pages. The journey runs on a site of
 * its own with the demo data, so the shared server's branding is never changed; a drawn raffle, a
 * drawn battle, a giveaway roll, a waiting Split or Steal game, a Deal or No Deal game and a running
 * hunt give their pages something to show.
 */
import type { Page } from '@playwright/test';
import { seriousViolations, waitForSettled } from './axe-every-page';
import { grantPoints } from './chat-helpers';
import { finishGiveaway, httpViewer } from './finished-events';
import { expect, test } from './fixtures';
import { newPerson, preAcceptAgeGate, screenshot, signIn } from './helpers';
import { running, startSite } from './own-site';
import { overlayPaths } from '@kickback/common/overlays';

/** Accepted (4.63:1 on the lightest dark surface, docs/go-live.md), so everything built on it is near the edge. */
const ACCENT = '#d35f9b';
const ACCENT_RGB = '211, 95, 155';
const json = { 'x-requested-with': 'kickback' };

/** The public pages a visitor opens in the journeys, and the OBS overlays. */
const VISITOR_PAGES = [
  '/',
  '/leaderboard',
  '/leaderboard?site=6',
  '/store',
  '/earn',
  '/raffles',
  '/raffles/{raffle}',
  '/raffles/{raffle}/verify',
  '/giveaway/verify/{roll}',
  '/battles',
  '/battle/{battle}',
  '/battle/{battle}/verify',
  '/hunt',
  '/calls',
  '/live',
  '/DailyRewards',
  '/dailyrewardroobet',
  '/Challenges',
  '/RoobetVip',
  '/terms',
  '/privacy',
  '/game/splitorsteal/{sos}',
  '/game/dealornodeal/{dond}',
  '/game/dealornodeal/{dond}/verify',
  '/no/such/page',
  '/setup/not-a-setup-link',
];
/** Every OBS overlay; the alerts one holds its alert on screen long enough to be checked. */
const OVERLAYS = overlayPaths.map((p) => (p === '/overlay/alerts' ? `${p}?seconds=60` : p));
/** A signed-in User's pages. */
const VIEWER_PAGES = [
  '/',
  '/store',
  '/earn',
  '/activity',
  '/DailyRewards',
  '/Challenges',
  '/linkkick',
  '/battle/{battle}',
  '/game/splitorsteal/{sos}',
];
/** The admin's pages (the Admin menu's entries and the pages the admin journeys open). */
const ADMIN_PAGES = [
  '/admin/go-live',
  '/admin/settings',
  '/admin/integrations',
  '/admin/age-gate',
  '/admin/chat-simulator',
  '/admin/users',
  '/admin/audit',
  '/admin/products',
  '/admin/fulfilment',
  '/admin/verification',
  '/admin/leaderboards',
  '/admin/leaderboards?board=roobet',
  '/admin/daily-rewards',
  '/admin/raffles',
  '/admin/battles',
  '/admin/hunt',
  '/admin/calls',
  '/admin/commands',
  '/admin/predictions',
  '/admin/staff-prize-limits',
  '/admin/support-rewards',
  '/ChallengeManagement',
  '/createsplitorsteal',
  '/createdealornodeal',
  '/giveaway',
  '/DiscordMessageSender',
  '/game/splitorsteal/{sos}',
];

test('with a mid accent colour, axe finds nothing serious on any page the journeys visit, for a visitor, a User and the admin', async ({
  browser,
}) => {
  // A second server starts and some eighty pages are checked: 1.5–3 minutes alone, past 6 beside
  // the server tests in CI (docs/conventions.md#timeouts).
  test.setTimeout(600_000);
  const adminPerson = newPerson('Owner');
  const site = await startSite({ DEMO_DATA: '1', ADMIN_STEAM_IDS: adminPerson.steamId, LOG_LEVEL: 'info' }, running);
  try {
    const adminContext = await browser.newContext({ baseURL: site.url });
    await preAcceptAgeGate(adminContext);
    const admin = await adminContext.newPage();
    await admin.goto('/');
    await signIn(admin, adminPerson);

    // The admin picks the accent on Admin → Settings.
    await admin.goto('/admin/settings');
    await admin.getByLabel('Accent colour').fill(ACCENT);
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Settings successfully updated.')).toBeVisible();

    // Something on each page that shows one: a drawn raffle, a drawn battle, two games, a running hunt.
    const viewers = await Promise.all(
      ['Ann', 'Ben'].map((prefix) => httpViewer(browser, site.url, { ...newPerson(prefix) })),
    );
    const ok = async (res: Promise<{ status(): number; text(): Promise<string>; json(): Promise<unknown> }>) => {
      const r = await res;
      expect(r.status(), await r.text()).toBe(200);
      return r.json() as Promise<Record<string, unknown>>;
    };
    const now = Date.now();
    const raffle = (
      await ok(
        admin.request.post('/api/admin/raffles', {
          headers: json,
          data: {
            title: 'Accent raffle',
            description: 'A raffle to look at.',
            prizes: [{ kind: 'points', points: 10 }],
            ticketPrice: 1,
            maxTicketsPerUser: 5,
            opensAt: new Date(now - 60_000).toISOString(),
            closesAt: new Date(now + 3_600_000).toISOString(),
          },
        }),
      )
    ).raffle as { id: string };
    await ok(admin.request.post(`/api/admin/raffles/${raffle.id}/open`, { headers: json }));
    for (const v of viewers) {
      await grantPoints(admin, v.name, 10, 'e2e accent');
      await ok(v.request.post(`/api/raffles/${raffle.id}/tickets`, { headers: json, data: { quantity: 2 } }));
    }
    await ok(admin.request.post(`/api/admin/raffles/${raffle.id}/draw`, { headers: json }));
    const battle = (await ok(
      admin.request.post('/api/admin/battles', {
        headers: json,
        data: { title: 'Accent battle', size: 4, registrationMinutes: 10, prize: { kind: 'points', points: 50 } },
      }),
    )) as { id: string };
    for (const v of viewers) await ok(v.request.post(`/api/battles/${battle.id}/enter`, { headers: json, data: {} }));
    await ok(admin.request.post(`/api/admin/battles/${battle.id}/close`, { headers: json, data: {} }));
    const sos = (await ok(
      admin.request.post('/api/SplitOrStealGame/create', { headers: json, data: { reward: 25 } }),
    )) as { gameId: string };
    const annId = (
      (await ok(admin.request.get(`/api/admin/users?query=${viewers[0]!.name}`, { headers: json }))) as unknown as {
        items: Array<{ id: string }>;
      }
    ).items[0]!.id;
    const amounts = Array.from({ length: 24 }, (_, i) => (i + 1) * 10);
    const dond = (await ok(
      admin.request.post('/api/DealOrNoDeal/create', {
        headers: json,
        data: { playerUserId: annId, Amounts: amounts },
      }),
    )) as { gameId: string };
    const hunt = (await ok(
      admin.request.post('/api/admin/hunts', {
        headers: json,
        data: { name: 'Accent hunt', startCost: 100, guessPrize: 25 },
      }),
    )) as { id: string };
    await ok(
      admin.request.post(`/api/admin/hunts/${hunt.id}/bonuses`, {
        headers: json,
        data: { slot: 'Sweet Bonanza', bet: 1 },
      }),
    );
    const found: string[] = [];
    const check = async (page: Page, who: string, label: string) => {
      await waitForSettled(page).catch(() => undefined);
      for (const v of await seriousViolations(page)) found.push(`${who} ${label} — ${v}`);
    };
    // A roll on Admin → Giveaway; its winner dialog is checked as it opens.
    const sim = await adminContext.newPage();
    await sim.goto('/admin/chat-simulator');
    const roll = await finishGiveaway(admin, sim, 'accent_chatter', String(Date.now() % 100000));
    await sim.close();
    await check(admin, 'admin', 'giveaway winner dialog');
    const ids: Record<string, string> = {
      raffle: raffle.id,
      battle: battle.id,
      sos: sos.gameId,
      dond: dond.gameId,
      roll,
    };
    const at = (path: string) => path.replace(/\{(\w+)\}/g, (_, key: string) => ids[key]!);

    const visit = async (page: Page, who: string, paths: string[], { overlay = false } = {}) => {
      for (const path of paths) {
        await page.goto(at(path));
        await expect(page.locator('main').first()).toBeAttached();
        if (!overlay) {
          // The page's own content has drawn (every page has its one h1), not a loading state.
          await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
          // The site's accent is the one picked, not the default green.
          await expect
            .poll(() =>
              page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--kb-accent-rgb')),
            )
            .toContain(ACCENT_RGB);
        }
        await check(page, who, path);
      }
    };

    // The three roles at once, each in its own browser context: most of the time is spent waiting
    // for pages to settle.
    const asVisitor = async () => {
      const visitorContext = await browser.newContext({ baseURL: site.url });
      await preAcceptAgeGate(visitorContext);
      const visitor = await visitorContext.newPage();
      await visit(visitor, 'visitor', VISITOR_PAGES);
      await visitor.goto('/');
      await screenshot(visitor, 'accent-home');
      await visit(visitor, 'visitor', OVERLAYS, { overlay: true });
      await visitorContext.close();
    };
    const asUser = async () => {
      const viewer = await viewers[0]!.context.newPage();
      await visit(viewer, 'User', VIEWER_PAGES);
      await screenshot(viewer, 'accent-user-split-or-steal');
      // The user menu and the profile dialog, open over the page.
      await viewer.goto('/Challenges');
      await screenshot(viewer, 'accent-challenges');
      await viewer.locator('#kb-user-menu').click();
      await check(viewer, 'User', 'user menu');
      await viewer.getByRole('button', { name: 'Profile', exact: true }).click();
      await expect(viewer.getByRole('dialog', { name: 'Profile Settings' })).toBeVisible();
      await check(viewer, 'User', 'Profile Settings dialog');
      await screenshot(viewer, 'accent-profile');
    };
    const asAdmin = async () => {
      await visit(admin, 'admin', ADMIN_PAGES);
      await admin.goto('/admin/audit');
      await expect(admin.getByRole('table')).toBeVisible();
      await screenshot(admin, 'accent-admin-audit');
      await admin.getByRole('button', { name: 'Admin', exact: true }).click();
      await check(admin, 'admin', 'Admin menu');
    };
    await Promise.all([asVisitor(), asUser(), asAdmin()]);

    expect(found, found.join('\n')).toEqual([]);
  } finally {
    site.server.kill('SIGTERM');
  }
});
