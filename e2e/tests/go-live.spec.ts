/**
 * Going live without a developer (docs/go-live.md): a fresh site prints a one-time setup link in
 * its log; whoever opens it and signs in becomes the admin, once. A plain sign-in is a User. While
 * sign-in goes through the dev provider every page says so, the OBS overlays excepted.
 */
import type { ChildProcess } from 'node:child_process';
import { grantPoints } from './chat-helpers';
import { finishBattle, finishGiveaway, finishHunt, finishSplitOrSteal, httpViewer } from './finished-events';
import { expect, test } from './fixtures';
import { newPerson, preAcceptAgeGate, screenshot, signIn } from './helpers';
import { running, startSite } from './own-site';

/** A fresh site of its own (empty database, no demo data): its URL and the setup link it printed. */
async function freshSite(): Promise<{ url: string; setupLink: string; server: ChildProcess }> {
  const site = await startSite({}, (output) => /"setupLink":"([^"]+)"/.exec(output)?.[1] ?? null);
  return { url: site.url, setupLink: site.found, server: site.server };
}

/** A site of its own with the demo data (DEMO_DATA=1, as `npm start`), `adminSteamId` its admin. */
async function demoSite(adminSteamId: string): Promise<{ url: string; server: ChildProcess }> {
  const site = await startSite({ DEMO_DATA: '1', ADMIN_STEAM_IDS: adminSteamId, LOG_LEVEL: 'info' }, running);
  return { url: site.url, server: site.server };
}

const json = { 'x-requested-with': 'kickback' };

test('a fresh site: a plain sign-in is a User; the setup link from the log makes the streamer the admin, once', async ({
  browser,
}) => {
  test.setTimeout(240_000); // a second server starts on a machine the suite's server already loads
  const site = await freshSite();
  try {
    expect(site.setupLink).toMatch(new RegExp(`^${site.url}/setup/[\\w-]{32}$`));

    // A viewer who signs in on the fresh site is a User: no Admin menu. The dev banner says what sign-in this is.
    const viewerContext = await browser.newContext({ baseURL: site.url });
    await preAcceptAgeGate(viewerContext);
    const viewer = await viewerContext.newPage();
    await viewer.goto('/');
    const banner = viewer.getByRole('complementary', { name: 'Development sign-in' });
    await expect(banner).toContainText('anyone can sign in as any account');
    await signIn(viewer, newPerson('Viewer'));
    await expect(viewer.getByRole('button', { name: 'Admin', exact: true })).toHaveCount(0);
    // Not on an OBS overlay.
    await viewer.goto('/overlay/giveaway');
    await expect(viewer.locator('body')).not.toContainText('Dev sign-in is on');

    // The streamer opens the link from the log and signs in.
    const streamerContext = await browser.newContext({
      baseURL: site.url,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await preAcceptAgeGate(streamerContext);
    const streamer = await streamerContext.newPage();
    await streamer.goto(site.setupLink);
    await expect(streamer.getByRole('heading', { name: 'Claim Kickback' })).toBeVisible();
    await signIn(streamer, newPerson('Vex'));
    await screenshot(streamer, 'go-live-claim');
    await streamer.getByRole('button', { name: /^Make .* the admin$/ }).click();
    await expect(streamer.getByText('You are the admin of this site now.')).toBeVisible();
    await expect(streamer.getByRole('button', { name: 'Admin', exact: true })).toBeVisible();
    await screenshot(streamer, 'go-live-claimed');

    // The Admin dropdown's first entry is the Go live checklist: what is missing, and the webhook URL to paste.
    await streamer.getByRole('button', { name: 'Admin', exact: true }).click();
    const firstEntry = streamer.locator('.dropdown-menu.show .dropdown-item').first();
    await expect(firstEntry).toHaveText('Go live');
    await firstEntry.click();
    await expect(streamer.getByRole('heading', { name: 'Go live', level: 1 })).toBeVisible();
    await expect(streamer.getByRole('status').filter({ hasText: 'to do before going live' })).toBeVisible();
    const steam = streamer.locator('[data-golive="steam"]');
    await expect(steam).toHaveAttribute('data-state', 'todo');
    await expect(steam).toContainText('STEAM_API_KEY');
    const webhook = streamer.locator('[data-golive="kick.webhookUrl"]');
    await expect(webhook.locator('code')).toHaveText(`${site.url}/webhooks/kick`);
    await webhook.getByRole('button', { name: 'Copy' }).click();
    await expect(streamer.getByText('Copied.')).toBeVisible();
    expect(await streamer.evaluate(() => navigator.clipboard.readText())).toBe(`${site.url}/webhooks/kick`);
    await expect(streamer.locator('[data-golive="demoData"]')).toHaveAttribute('data-state', 'ready');
    await screenshot(streamer, 'go-live-checklist');

    // The link works once: the viewer opening it later is told so, is offered no button, and stays a User.
    await viewer.goto(site.setupLink);
    await expect(viewer.getByText(/This setup link is not valid/)).toBeVisible();
    await expect(viewer.getByRole('button', { name: /^Make .* the admin$/ })).toHaveCount(0);
    await viewer.reload();
    await expect(viewer.getByRole('button', { name: 'Admin', exact: true })).toHaveCount(0);
  } finally {
    site.server.kill('SIGTERM');
  }
});

test('going live from the demo: Remove demo data empties the demo catalogue, keeps finished draws and games verifiable, and the Demo data item turns Ready', async ({
  browser,
}) => {
  // A second server starts on a machine the suite's server already loads, and four events are played on it.
  test.setTimeout(360_000);
  const streamer = newPerson('Vex');
  const site = await demoSite(streamer.steamId);
  try {
    const context = await browser.newContext({ baseURL: site.url });
    await preAcceptAgeGate(context);
    const page = await context.newPage();
    await page.goto('/');
    await signIn(page, streamer);
    await page.goto('/store');
    await expect(page.getByRole('button', { name: 'Buy Karambit | Fade' })).toBeVisible();

    // A raffle a demo account and a real viewer bought into, drawn: every ticket wins a prize, so a
    // demo account is among the announced winners.
    const stamp = String(Date.now() % 100000);
    const title = `History raffle ${stamp}`;
    const demoViewer = await httpViewer(browser, site.url, {
      name: 'CrateQueen',
      steamId: '76561199999999012',
      demo: true,
    });
    const realViewer = await httpViewer(browser, site.url, newPerson('Real'));
    for (const v of [demoViewer, realViewer]) await grantPoints(page, v.name, 100, 'e2e history');
    const now = Date.now();
    const created = await page.request.post('/api/admin/raffles', {
      headers: json,
      data: {
        title,
        description: '',
        prizes: [
          { kind: 'points', points: 10 },
          { kind: 'points', points: 5 },
        ],
        ticketPrice: 1,
        maxTicketsPerUser: 40,
        opensAt: new Date(now - 60_000).toISOString(),
        closesAt: new Date(now + 3_600_000).toISOString(),
      },
    });
    expect(created.status(), await created.text()).toBe(200);
    const raffleId = ((await created.json()) as { raffle: { id: string } }).raffle.id;
    expect((await page.request.post(`/api/admin/raffles/${raffleId}/open`, { headers: json })).status()).toBe(200);
    for (const [v, n] of [
      [demoViewer, 36],
      [realViewer, 5],
    ] as const) {
      const bought = await v.request.post(`/api/raffles/${raffleId}/tickets`, { headers: json, data: { quantity: n } });
      expect(bought.status(), await bought.text()).toBe(200);
    }
    expect((await page.request.post(`/api/admin/raffles/${raffleId}/draw`, { headers: json })).status()).toBe(200);
    const verdict = async () => {
      await page.goto(`/raffles/${raffleId}/verify`);
      await expect(page.getByTestId('verify-result')).toContainText(/^match: /);
      await page.goto(`/raffles/${raffleId}`);
      await expect(page.getByTestId('tickets-sold')).toHaveText('41');
    };
    await verdict();

    // A hunt a demo account won with its !guess, a giveaway a demo account won, a Split or Steal
    // game a demo account stole, and a battle two demo accounts entered: each finished.
    const sim = await context.newPage();
    await sim.goto('/admin/chat-simulator');
    const luke = await httpViewer(browser, site.url, { name: 'LuckyLuke', steamId: '76561199999999011', demo: true });
    const realTwo = await httpViewer(browser, site.url, newPerson('Realtwo'));
    const huntName = await finishHunt(page, sim, [demoViewer, realViewer], stamp);
    // CrateQueen's Kick account, linked for the hunt, is the giveaway's one entrant.
    const rollId = await finishGiveaway(page, sim, `kick_${stamp}_0`, stamp);
    await sim.close();
    const gameUrl = await finishSplitOrSteal(page, luke, realViewer);
    const battle = await finishBattle(page, [demoViewer, luke, realViewer, realTwo], stamp);
    const huntCard = page.getByRole('article', { name: huntName });
    const player = (n: 1 | 2) => page.getByRole('article', { name: `Player ${n}` });
    /** What each finished event shows; its verify page must say match, before the removal and after. */
    const finished = async (shot?: string) => {
      await page.goto('/hunt');
      await expect(huntCard.getByRole('status')).toHaveText(/The revealed list matches the published hash/);
      await huntCard.getByText('All 2 guesses').click();
      const hunt = [await huntCard.getByLabel('Guess winner').innerText(), await huntCard.locator('ol').innerText()];
      if (shot) await screenshot(page, `${shot}-hunt`);

      await page.goto(gameUrl);
      await expect(page.getByRole('status').filter({ hasText: /./ }).first()).toHaveText('Game over');
      await expect(player(1).getByText('Winner')).toBeVisible();
      const game = [await player(1).innerText(), await player(2).innerText()];
      if (shot) await screenshot(page, `${shot}-split-or-steal`);

      await page.goto(`/battle/${battle.id}/verify`);
      await expect(page.getByTestId('verify-result')).toContainText(/^match: /);
      const bracketDraw = await page.getByTestId('verify-result').innerText();
      if (shot) await screenshot(page, `${shot}-battle-verify`);
      await page.goto(`/battle/${battle.id}`);
      await expect(page.getByTestId('battle-winner')).toBeVisible();
      const results = [
        await page.getByTestId('battle-winner').innerText(),
        ...(await page.getByTestId('match-multiplier').allInnerTexts()),
      ];
      if (shot) await screenshot(page, `${shot}-battle`);

      await page.goto(`/giveaway/verify/${rollId}`);
      await expect(page.getByTestId('verify-result')).toContainText(/^match: /);
      const roll = await page.getByTestId('verify-result').innerText();
      if (shot) await screenshot(page, `${shot}-giveaway-verify`);
      return { hunt, game, bracketDraw, results, roll };
    };
    const before = await finished();
    expect(before.hunt[0]).toContain(`kick_${stamp}_0 guessed $180.00 ($5.00 off)`);
    expect(before.game[0]).toContain('LuckyLuke');
    expect(before.game[0]).toContain('+40.00');
    expect(before.results).toHaveLength(7); // the winner and six multipliers

    await page.goto('/admin/go-live');
    const demo = page.locator('[data-golive="demoData"]');
    await expect(demo).toHaveAttribute('data-state', 'todo');
    await demo.getByRole('button', { name: 'Remove demo data' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove demo data' });
    await expect(dialog).toContainText(
      "This removes the demo accounts, products, challenges and boards the demo made. Real users' data stays.",
    );
    // The confirmation lists the finished events demo accounts took part in, each linked.
    await expect(dialog.getByRole('link', { name: `Raffle "${title}"` })).toHaveAttribute(
      'href',
      `/raffles/${raffleId}/verify`,
    );
    await expect(dialog.getByRole('link', { name: `Bonus hunt "${huntName}"` })).toHaveAttribute('href', '/hunt');
    await expect(dialog.getByRole('link', { name: 'Split or Steal for 40.00 points' })).toHaveAttribute(
      'href',
      gameUrl,
    );
    await expect(dialog.getByRole('link', { name: 'Giveaway draw' })).toHaveAttribute(
      'href',
      `/giveaway/verify/${rollId}`,
    );
    await expect(dialog.getByRole('link', { name: `Bonus buy battle "${battle.title}"` })).toHaveAttribute(
      'href',
      `/battle/${battle.id}/verify`,
    );
    await screenshot(page, 'go-live-remove-demo-confirm');
    await dialog.getByRole('button', { name: 'Remove demo data' }).click();
    await expect(page.getByText(/^Removed \d+ demo accounts, 16 products, /)).toBeVisible();
    await expect(page.getByText(/Kept 5 finished events demo accounts took part in, as announced/)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(demo).toHaveAttribute('data-state', 'ready');
    await expect(demo.getByRole('button', { name: 'Remove demo data' })).toHaveCount(0);
    await screenshot(page, 'go-live-demo-removed');

    // The drawn raffle is history: its verify page still says match, its tickets sold are the same,
    // and the demo winner shows as a removed account.
    await verdict();
    await expect(page.getByTestId('raffle-winners').first()).toContainText('removed account');
    await screenshot(page, 'go-live-demo-removed-raffle');

    // The hunt, the giveaway, the game and the battle too: every verify page still says match, and
    // each shows the same result, the demo players as removed accounts.
    const after = await finished('go-live-demo-removed');
    expect(after.hunt).toEqual(before.hunt);
    expect(after.bracketDraw).toEqual(before.bracketDraw);
    expect(after.roll).toEqual(before.roll);
    expect(before.roll).toContain(`the server announced kick_${stamp}_0.`);
    expect(after.game[0]).toEqual(before.game[0]!.replace('LuckyLuke', 'removed account'));
    expect(after.game[1]).toEqual(before.game[1]);
    expect(after.results[0]).toEqual(
      before.results[0]!.replace(/^Winner: (CrateQueen|LuckyLuke)/, 'Winner: removed account'),
    );
    expect(after.results.slice(1)).toEqual(before.results.slice(1));

    // The store has none of the demo catalogue left, in the app and on a fresh load.
    await page.getByRole('link', { name: 'Store', exact: true }).first().click();
    await expect(page.getByText('The store is empty right now. Check back soon!')).toBeVisible();
    await page.reload();
    await expect(page.getByText('The store is empty right now. Check back soon!')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Buy / })).toHaveCount(0);
  } finally {
    site.server.kill('SIGTERM');
  }
});
