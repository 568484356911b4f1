/**
 * The community wager goal (docs/features/community-goal.md): the admin sets Clash.gg's goal on
 * Admin → Leaderboards; the board and the OBS overlay show its progress and move, without a reload,
 * when a simulated player's wager rises and the board refreshes; the goal is then reached.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, screenshot, signIn } from './helpers';

const json = { 'x-requested-with': 'kickback' };

/** The figure before the slash of "12,345.67 / 20,000.00". */
const progressOf = async (text: Promise<string | null>) =>
  Number(((await text) ?? '').split('/')[0]!.replace(/[^\d.]/g, ''));

async function refreshClash(admin: Page) {
  const res = await admin.request.post('/api/admin/leaderboards/1/refresh', { headers: json });
  expect(res.ok(), await res.text()).toBe(true);
}

async function bet(admin: Page, amount: number) {
  const players = (await (
    await admin.request.get('/dev/partners/control/players/1', { headers: json })
  ).json()) as Array<{
    id: string;
  }>;
  const res = await admin.request.post('/dev/partners/control/bet', {
    headers: json,
    data: { site: 1, playerId: players[0]!.id, amount },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

test('the admin sets a goal; the board and the overlay move as the wager rises, then show it reached', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, DEMO_ADMIN, { demo: true });
  await refreshClash(admin);
  const stamp = Date.now() % 100000;

  // Admin → Leaderboards, Clash.gg's card: the goal section. A target far away first.
  await admin.goto('/admin/leaderboards?board=clash');
  const form = admin.getByRole('form', { name: 'Clash.gg community goal' });
  await form.getByLabel('Goal title').fill(`Wager together ${stamp}`);
  await form.getByLabel('Target').fill('0');
  await form.getByLabel('Reward when reached').fill('A raffle opens for everyone on the board');
  await form.getByRole('button', { name: 'Save goal' }).click();
  await expect(form.getByRole('alert')).toHaveText('The target must be more than 0.');
  await form.getByLabel('Target').fill('999999999');
  await form.getByRole('button', { name: 'Save goal' }).click();
  await expect(admin.getByText('Clash.gg community goal saved.')).toBeVisible();
  await expect(admin.getByTestId('goal-1-progress')).toContainText('This period:');
  await screenshot(admin, 'community-goal-admin');

  // The board and the overlay show it.
  const board = await (await browser.newContext()).newPage();
  await board.goto('/leaderboard');
  const bar = board.getByTestId('community-goal-clash');
  await expect(bar).toContainText(`Wager together ${stamp}`);
  const boardFigure = bar.getByTestId('community-goal-progress');
  await expect(boardFigure).toContainText('999,999,999');
  const overlay = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
  await overlay.goto('/overlay/goal?site=clash');
  const panel = overlay.getByTestId('goal-overlay-clash');
  await expect(panel).toContainText(`Wager together ${stamp}`);
  const overlayFigure = panel.getByTestId('goal-overlay-progress');
  await expect(overlayFigure).toContainText('999,999,999');
  const before = await progressOf(overlayFigure.textContent());

  // A player bets 5,000 on the simulator; the board refreshes: both move without a reload.
  await bet(admin, 5000);
  await refreshClash(admin);
  await expect.poll(() => progressOf(overlayFigure.textContent())).toBeGreaterThanOrEqual(before + 5000);
  await expect.poll(() => progressOf(boardFigure.textContent())).toBeGreaterThanOrEqual(before + 5000);
  await screenshot(board, 'community-goal-board');
  await expectAccessible(board);

  // A target just above the progress; the next bet reaches it.
  const now = await progressOf(overlayFigure.textContent());
  const saved = await admin.request.put('/api/admin/community-goals/1', {
    headers: json,
    data: { title: `Wager together ${stamp}`, target: now + 1000, reward: 'A raffle opens for everyone', active: true },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  await expect(panel).not.toContainText('Reached!');
  await bet(admin, 2000);
  await refreshClash(admin);
  await expect(panel).toContainText('Reached! A raffle opens for everyone');
  await expect(bar).toContainText('Reached! A raffle opens for everyone');
  await overlay.evaluate(() =>
    document.documentElement.style.setProperty('background', 'linear-gradient(135deg, #1b2230, #0c0f14)', 'important'),
  );
  await screenshot(overlay, 'community-goal-overlay');

  // Leave no goal showing for the journeys that run after this one.
  const off = await admin.request.put('/api/admin/community-goals/1', {
    headers: json,
    data: { title: `Wager together ${stamp}`, target: 1, reward: '', active: false },
  });
  expect(off.ok()).toBe(true);
  await expect(panel).toHaveCount(0);
  await Promise.all([admin, board, overlay].map((p) => p.context().close()));
});
