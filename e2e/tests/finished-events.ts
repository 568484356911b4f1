/**
 * Finished events for the demo-removal journey (docs/go-live.md#removing-the-demo-data): a hunt, a
 * Split or Steal game, a bonus-buy battle and a giveaway roll played to the end on a site of the
 * journey's own, each with a demo account among its players, the way the game journeys drive them
 * (the admin's routes, the Chat Simulator for `!guess` and the giveaway's key, the players' own
 * pages for Split or Steal, the Roll button).
 */
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { postInChat } from './chat-helpers';
import { preAcceptAgeGate } from './helpers';

const json = { 'x-requested-with': 'kickback' };

export interface Viewer {
  name: string;
  context: BrowserContext;
  request: APIRequestContext;
}

/** A viewer signed in through the dev provider's form over HTTP; a demo account when `demo` is set. */
export async function httpViewer(
  browser: Browser,
  baseURL: string,
  person: { name: string; steamId: string; demo?: boolean },
): Promise<Viewer> {
  const context = await browser.newContext({ baseURL });
  await preAcceptAgeGate(context);
  const login = await context.request.get('/auth/steam/signin?returnTo=/');
  const action = /<form method="post" action="([^"]+)">/.exec(await login.text())![1]!.replaceAll('&amp;', '&');
  const form = { personaname: person.name, steamid: person.steamId, ...(person.demo ? { demo: '1' } : {}) };
  const done = await context.request.post(action, { form });
  expect(done.ok(), `sign-in of ${person.name}`).toBe(true);
  return { name: person.name, context, request: context.request };
}

async function ok(response: Promise<{ status(): number; text(): Promise<string>; json(): Promise<unknown> }>) {
  const res = await response;
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/** The viewer links a Kick account with `!verify` through the admin's Chat Simulator page `sim`. */
async function linkKick(sim: Page, viewer: Viewer, kickName: string) {
  const page = await viewer.context.newPage();
  await page.goto('/');
  await page.locator('#kb-user-menu').click();
  await page.getByRole('button', { name: 'Profile', exact: true }).click();
  const profile = page.getByRole('dialog', { name: 'Profile Settings' });
  await profile.getByRole('button', { name: 'Link Kick', exact: true }).click();
  const command = (await page.getByTestId('kick-verify-command').textContent()) ?? '';
  await expect(await postInChat(sim, kickName, command)).toContainText(`@${kickName} your Kick account is now linked`);
  await page.close();
}

/**
 * A finished hunt: `guessers` link Kick and `!guess` in chat (the first closest), guessing closes,
 * the one bonus is opened and the hunt finished. Returns its name.
 */
export async function finishHunt(admin: Page, sim: Page, guessers: Viewer[], stamp: string): Promise<string> {
  const name = `History hunt ${stamp}`;
  const hunt = (await ok(
    admin.request.post('/api/admin/hunts', { headers: json, data: { name, startCost: 100, guessPrize: 25 } }),
  )) as { id: string };
  const added = (await ok(
    admin.request.post(`/api/admin/hunts/${hunt.id}/bonuses`, {
      headers: json,
      data: { slot: 'Sweet Bonanza', bet: 1 },
    }),
  )) as { bonuses: Array<{ id: string }> };
  for (const [i, viewer] of guessers.entries()) {
    const kickName = `kick_${stamp}_${i}`;
    await linkKick(sim, viewer, kickName);
    await expect(await postInChat(sim, kickName, `!guess ${180 + i * 100}`)).toContainText('guess taken');
  }
  await ok(admin.request.post(`/api/admin/hunts/${hunt.id}/close-guessing`, { headers: json, data: {} }));
  await ok(
    admin.request.post(`/api/admin/hunts/${hunt.id}/bonuses/${added.bonuses[0]!.id}/open`, {
      headers: json,
      data: { payout: 175 },
    }),
  );
  await ok(admin.request.post(`/api/admin/hunts/${hunt.id}/finish`, { headers: json, data: {} }));
  return name;
}

const userId = async (admin: Page, name: string) => {
  const found = (await ok(
    admin.request.get(`/api/admin/users?query=${encodeURIComponent(name)}`, { headers: json }),
  )) as {
    items: Array<{ id: string; username: string }>;
  };
  return found.items.find((u) => u.username === name)!.id;
};

/** A Split or Steal game the two play to the end on their own pages: the first steals, the second splits. */
export async function finishSplitOrSteal(admin: Page, stealer: Viewer, splitter: Viewer): Promise<string> {
  const created = (await ok(
    admin.request.post('/api/SplitOrStealGame/create', {
      headers: json,
      data: {
        player1UserId: await userId(admin, stealer.name),
        player2UserId: await userId(admin, splitter.name),
        reward: 40,
        counterInSeconds: 10,
      },
    }),
  )) as { gameId: string };
  const url = `/game/splitorsteal/${created.gameId}`;
  const pages = await Promise.all([stealer, splitter].map((v) => v.context.newPage()));
  for (const [i, page] of pages.entries()) {
    await page.goto(url);
    await page.getByRole('button', { name: `Join as Player ${i + 1}` }).click();
  }
  const [p1, p2] = pages as [Page, Page];
  await p1.getByRole('button', { name: 'Steal', exact: true }).click({ timeout: 15_000 });
  await p2.getByRole('button', { name: 'Split', exact: true }).click();
  await expect(p1.getByRole('status').filter({ hasText: /./ }).first()).toHaveText('Game over', { timeout: 25_000 });
  await Promise.all(pages.map((p) => p.close()));
  return url;
}

/** A 4-bracket battle the four enter, drawn at the close, its three matches recorded. Returns its id. */
export async function finishBattle(
  admin: Page,
  entrants: Viewer[],
  stamp: string,
): Promise<{ id: string; title: string }> {
  const title = `History battle ${stamp}`;
  const { id } = (await ok(
    admin.request.post('/api/admin/battles', {
      headers: json,
      data: { title, size: 4, registrationMinutes: 10, prize: { kind: 'points', points: 50 } },
    }),
  )) as { id: string };
  for (const v of entrants) await ok(v.request.post(`/api/battles/${id}/enter`, { headers: json, data: {} }));
  await ok(admin.request.post(`/api/admin/battles/${id}/close`, { headers: json, data: {} }));
  for (let no = 0; no < 3; no++) {
    await ok(
      admin.request.post(`/api/admin/battles/${id}/matches/${no}/result`, {
        headers: json,
        data: { a: { cost: 100, win: 150 + no * 10 }, b: { cost: 100, win: 120 } },
      }),
    );
  }
  return { id, title };
}

/**
 * A giveaway roll on Admin → Giveaway with one entrant, `kickName` (a linked chatter), who is drawn.
 * Returns the roll's id (its verify page is /giveaway/verify/{id}).
 */
export async function finishGiveaway(admin: Page, sim: Page, kickName: string, stamp: string): Promise<string> {
  await admin.goto('/giveaway');
  const key = `!hist${stamp}`;
  // The page is live once its state came over the hub (the next draw's commitment shows).
  await expect(admin.getByTestId('seed-hash')).toBeVisible();
  await admin.getByPlaceholder('Add new key..').fill(key);
  await admin.getByPlaceholder('Add new key..').press('Enter');
  await expect(admin.getByText(`Key ${key} added.`)).toBeVisible();
  await admin.getByRole('button', { name: 'Clear Participants' }).click();
  await expect(admin.getByTestId('participant-count')).toHaveText('0 participants');
  await postInChat(sim, kickName, key);
  await expect(admin.getByTestId('participant-count')).toHaveText('1 participant');
  await admin.getByRole('button', { name: 'Roll', exact: true }).click();
  await expect(admin.getByRole('dialog', { name: 'Winner' })).toBeVisible({ timeout: 15_000 });
  const href = await admin.getByRole('link', { name: 'Verify this draw' }).getAttribute('href');
  return href!.split('/').pop()!;
}
