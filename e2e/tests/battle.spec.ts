/**
 * A bonus-buy battle in the browser: nine viewers with verified Roobet links; the admin creates an
 * 8-bracket battle gated on a minimum Roobet wager this period in Admin → Battles; the viewer whose
 * link has no wager is refused with both figures, eight enter (one with the button, the rest
 * through the API); closing draws the bracket, which the verify page recomputes ("match"); the
 * admin records the seven matches; the winner is paid once (a second final is refused) and the OBS
 * overlay shows the same bracket and results as the page.
 */
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, newPerson, signIn } from './helpers';

const json = { 'X-Requested-With': 'kickback' };
const ROOBET = 6;
const shot = (page: Page, name: string, transparent = false) =>
  page.screenshot({ path: `/tmp/battle-${name}.png`, fullPage: true, omitBackground: transparent });

interface Viewer {
  name: string;
  request: APIRequestContext;
  page(): Promise<Page>;
}

/** A viewer signed in through the dev provider's form over HTTP (no page until one is wanted). */
async function viewer(browser: Browser, prefix: string): Promise<Viewer> {
  const person = newPerson(prefix);
  const context = await browser.newContext();
  const login = await context.request.get('/auth/steam/signin?returnTo=/battles');
  const action = /<form method="post" action="([^"]+)">/.exec(await login.text())![1]!.replaceAll('&amp;', '&');
  const done = await context.request.post(action, { form: { personaname: person.name, steamid: person.steamId } });
  expect(done.ok(), `sign-in of ${person.name}`).toBe(true);
  return { name: person.name, request: context.request, page: () => context.newPage() };
}

test('an 8-entrant battle: wager gate, drawn and verified bracket, seven matches, the prize once, the overlay', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const stamp = String(Date.now() % 100000);
  const title = `Bonus battle ${stamp}`;
  const admin = await (await browser.newContext()).newPage();
  await admin.goto('/');
  await signIn(admin, DEMO_ADMIN, { demo: true });

  // Roobet players of the simulator whom nobody has linked yet (demo users and other journeys have
  // some): thirteen viewers try one each at once, and bet 1,000 under the code; one more claims a
  // name with no wager.
  const cast = (await (await admin.request.get(`/dev/partners/control/players/${ROOBET}`)).json()) as Array<{
    id: string;
    name: string;
  }>;
  // Not the players other journeys claim later on the same server: the cast's last one
  // (partner-verification) and SpinDoctor (daily-rewards).
  const theirs = new Set([cast.at(-1)!.name, 'SpinDoctor']);
  const claims = await Promise.all(
    [...cast]
      .reverse()
      .filter((player) => !theirs.has(player.name))
      .slice(0, 13)
      .map(async (player) => {
        const v = await viewer(browser, 'Battler');
        const claim = await v.request.post('/api/User/ids', { headers: json, data: { RoobetName: player.name } });
        if (!claim.ok()) return null; // linked already by a demo user or another journey
        const bet = await v.request.post('/dev/partners/control/bet', {
          headers: json,
          data: { site: ROOBET, playerId: player.id, amount: 1000 },
        });
        expect(bet.ok()).toBe(true);
        return v;
      }),
  );
  const claimed = claims.filter((v): v is Viewer => v !== null);
  expect(claimed.length).toBeGreaterThanOrEqual(9);
  const low = await viewer(browser, 'NoWager');
  expect(
    (await low.request.post('/api/User/ids', { headers: json, data: { RoobetName: `NoWager${stamp}` } })).ok(),
  ).toBe(true);
  const refreshed = await admin.request.post(`/api/admin/leaderboards/${ROOBET}/refresh`, { headers: json });
  expect(refreshed.ok(), await refreshed.text()).toBe(true);
  const queue = (await (await admin.request.get('/api/admin/partner-links', { headers: json })).json()) as {
    claims: Array<{ id: number; user: { username: string } }>;
  };
  const ours = new Set([...claimed, low].map((v) => v.name));
  const ids = queue.claims.filter((c) => ours.has(c.user.username)).map((c) => c.id);
  expect(ids).toHaveLength(claimed.length + 1);
  expect((await admin.request.post('/api/admin/partner-links/approve', { headers: json, data: { ids } })).ok()).toBe(
    true,
  );

  // Admin → Battles: an 8 bracket on a verified Roobet link and 500 wagered this period.
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.locator('[aria-labelledby="kb-admin-menu"]').getByRole('link', { name: 'Battles', exact: true }).click();
  await expect(admin.getByRole('heading', { name: 'Battles', level: 1 })).toBeVisible();
  const form = admin.getByRole('form', { name: 'New battle' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Bracket size').selectOption('8');
  await form.getByLabel('Minimum wager this period').fill('500');
  await form.getByRole('button', { name: 'Create battle' }).click();
  await expect(form.getByText('Choose the partner site the minimum wager is counted on.')).toBeVisible();
  await form.getByLabel('Verified link on').selectOption(String(ROOBET));
  await form.getByLabel('Prize points').fill('500');
  await form.getByRole('button', { name: 'Create battle' }).click();
  await expect(admin.getByText('Battle created: registration is open.')).toBeVisible();
  const run = admin.getByRole('region', { name: `Run ${title}` });
  const href = await run.getByRole('link', { name: title }).getAttribute('href');
  const battleId = href!.split('/').pop()!;

  const overlay = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
  await overlay.goto('/overlay/battle');
  await expect(overlay.getByTestId('overlay-battle-title')).toContainText(title);

  // Too little wager: refused with both figures; nothing changes.
  const lowPage = await low.page();
  await lowPage.goto(`/battle/${battleId}`);
  await lowPage.getByRole('button', { name: 'Enter the battle' }).click();
  await expect(
    lowPage.getByText('You cannot enter this battle: it takes a wager of 500.00 on Roobet this period; you have 0.00.'),
  ).toBeVisible();

  // Eight enter with their slots (a player who left the code this period is refused too: the next one).
  const slots = [
    'Gates of Olympus',
    'Sugar Rush',
    'Wanted Dead or a Wild',
    'Dog House',
    'Big Bass Bonanza',
    'Sweet Bonanza',
    'Fruit Party',
    'Zeus vs Hades',
  ];
  const entrants: Viewer[] = [];
  for (const v of claimed) {
    if (entrants.length === 8) break;
    const entered = await v.request.post(`/api/battles/${battleId}/enter`, { headers: json });
    if (entered.status() === 403) continue;
    expect(entered.status(), await entered.text()).toBe(200);
    if (entrants.length > 0) {
      await v.request.put(`/api/battles/${battleId}/slot`, { headers: json, data: { slot: slots[entrants.length] } });
    }
    entrants.push(v);
  }
  expect(entrants).toHaveLength(8);
  // The first entrant picks their slot on the page.
  const watcher = await entrants[0]!.page();
  await watcher.goto(`/battle/${battleId}`);
  await expect(watcher.getByText('You are in this battle.')).toBeVisible();
  await watcher.getByLabel('My slot').fill(slots[0]!);
  await watcher.getByRole('button', { name: 'Save slot' }).click();
  await expect(watcher.getByText('Slot saved.')).toBeVisible();
  await expect(watcher.getByTestId('entrants').locator('li')).toHaveCount(8);
  await shot(watcher, '01-registration');

  // Closing draws the bracket; the verify page recomputes the draw in the browser.
  await run.getByRole('button', { name: 'Close registration and draw' }).click();
  await expect(run.getByTestId('admin-battle-status')).toHaveText('Playing');
  await expect(watcher.getByTestId('bracket-match')).toHaveCount(7);
  await expect(watcher.getByTestId('current-match')).toContainText('match 1');
  await expect(overlay.getByTestId('bracket-match')).toHaveCount(7);
  await shot(watcher, '02-drawn');
  await watcher.getByRole('link', { name: 'Verify the draw' }).click();
  await expect(watcher.getByTestId('verify-result')).toContainText('match:');
  await shot(watcher, '03-verify');
  await watcher.goBack();
  await expect(watcher.getByTestId('bracket-match')).toHaveCount(7);

  // The overlay is sized for reading on stream at 1920×1080 (like the giveaway's 56 px names).
  const px = (selector: string) =>
    overlay.locator(selector).first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  expect(await px('.kbb-now-name')).toBeGreaterThanOrEqual(56);
  expect(await px('.kbb-now-slot')).toBeGreaterThanOrEqual(36);
  expect(await px('.kbb-bracket .kbb-name')).toBeGreaterThanOrEqual(24);
  expect(await px('.kbb-bracket .kbb-slot')).toBeGreaterThanOrEqual(19);
  // All of it within the 1080 px frame.
  expect(await overlay.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(1080);
  await shot(overlay, '02-overlay-drawn', true);

  // The seven matches, as the streamer records them; the left side wins each at a higher multiplier,
  // but the first: a tie at 40.00× each, which the left side wins with the higher win.
  const record = run.getByRole('form', { name: 'Record the match in play' });
  for (let no = 0; no < 7; no++) {
    await expect(record.getByRole('heading')).toContainText(`Match ${no + 1}:`);
    const inputs = record.locator('input');
    await inputs.nth(0).fill('100');
    await inputs.nth(1).fill(no === 0 ? '4000' : String(150 + no * 10));
    await inputs.nth(2).fill(no === 0 ? '50' : '100');
    await inputs.nth(3).fill(no === 0 ? '2000' : '120.50');
    await record.getByRole('button', { name: 'Record result' }).click();
    if (no < 6) await expect(record.getByRole('heading')).toContainText(`Match ${no + 2}:`);
    if (no === 0) {
      // The tie and how it was broken, on the page and on stream.
      const tie = /^Tie at 40\.00× each: .+ goes on with the higher win \(4,000\.00 against 2,000\.00\)\.$/;
      await expect(watcher.getByTestId('match-tie')).toHaveText(tie);
      await expect(overlay.getByTestId('latest-tie')).toHaveText(tie);
      expect(await px('[data-testid="latest-tie"]')).toBeGreaterThanOrEqual(28);
      expect(await overlay.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(1080);
      await shot(overlay, '04-overlay-tie', true);
    }
  }
  await expect(run.getByTestId('admin-battle-status')).toHaveText('Finished');
  await expect(watcher.getByTestId('battle-winner')).toBeVisible();
  const winnerName = (await watcher.getByTestId('battle-winner').innerText()).replace(/^Winner: /, '').split(' · ')[0]!;
  await shot(watcher, '04-finished');

  // The overlay shows what the page shows: the same results in the same places, and the winner.
  await expect(overlay.getByTestId('overlay-battle-winner')).toContainText(winnerName);
  const multipliers = await watcher.getByTestId('match-multiplier').allInnerTexts();
  expect(multipliers).toHaveLength(14);
  await expect.poll(() => overlay.getByTestId('match-multiplier').allInnerTexts()).toEqual(multipliers);
  await shot(overlay, '05-overlay', true);

  // On a phone the bracket scrolls sideways inside its own region: the page does not, names stay
  // whole, the cut edge says more rounds follow, and the keyboard reaches the region.
  await watcher.setViewportSize({ width: 390, height: 844 });
  const bracket = watcher.getByRole('region', { name: 'Bracket' });
  await expect(bracket).toHaveAttribute('tabindex', '0');
  await expect(watcher.getByTestId('bracket-scroll-hint')).toHaveText('More rounds to the right: scroll sideways.');
  expect(await watcher.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const broken = await bracket.locator('.kbb-name').evaluateAll((names) =>
    names
      .filter((n) => n.getBoundingClientRect().height > 1.8 * parseFloat(getComputedStyle(n).fontSize))
      .map((n) => n.textContent),
  );
  expect(broken).toEqual([]);
  await bracket.focus();
  for (let i = 0; i < 25; i++) await watcher.keyboard.press('ArrowRight'); // the keyboard scrolls it to its end
  await expect(watcher.getByTestId('bracket-scroll-hint')).toBeHidden();
  await shot(watcher, '06-phone-bracket');
  await watcher.setViewportSize({ width: 1280, height: 800 });

  // The winner is paid once; recording the final again is refused and pays nothing more.
  const again = await admin.request.post(`/api/admin/battles/${battleId}/matches/6/result`, {
    headers: json,
    data: { a: { cost: 1, win: 2 }, b: { cost: 1, win: 1 } },
  });
  expect(again.status()).toBe(409);
  const winner = entrants.find((v) => v.name === winnerName)!;
  const activity = (await (await winner.request.get('/api/me/activity', { headers: json })).json()) as {
    items: Array<{ reason: string; delta: number }>;
  };
  expect(activity.items.filter((e) => e.reason === 'battle_prize')).toEqual([
    expect.objectContaining({ reason: 'battle_prize', delta: 500 }),
  ]);
});
