/**
 * Stream streaks (docs/features/stream-streaks.md): the admin sets a bonus for a streak of 2 on
 * Admin → Support rewards; a linked viewer chats during two streams in a row (the Chat
 * Simulator's Go live / End the stream); the profile shows a streak of 2 with its badge and My
 * activity the bonus.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { linkedChatter, postInChat } from './chat-helpers';
import { DEMO_ADMIN, expectAccessible, screenshot, signIn } from './helpers';

async function goLive(sim: Page) {
  await sim.getByRole('button', { name: 'Go live' }).click();
  await expect(sim.getByTestId('stream-state').getByLabel('Stream live')).toHaveText('Live');
}

async function endStream(sim: Page) {
  await sim.getByRole('button', { name: 'End the stream' }).click();
  await expect(sim.getByTestId('stream-state').getByLabel('Stream offline')).toHaveText('Offline');
}

test('two streams with chat make a streak of 2: the profile shows it and My activity the bonus', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN, { demo: true });

  // The admin's bonus table: 2 streams in a row pay 25 points.
  await admin.goto('/admin/support-rewards');
  const bonuses = admin.getByRole('form', { name: 'Stream streak bonuses' });
  await expect(bonuses).toBeVisible();
  while ((await bonuses.getByRole('button', { name: /^Remove the bonus/ }).count()) > 0) {
    await bonuses
      .getByRole('button', { name: /^Remove the bonus/ })
      .first()
      .click();
  }
  await bonuses.getByRole('button', { name: 'Add a bonus' }).click();
  await bonuses.getByLabel('Streams in a row').fill('2');
  await bonuses.getByLabel('Bonus points').fill('25');
  await bonuses.getByRole('button', { name: 'Save bonuses' }).click();
  await expect(admin.getByText('Stream streak bonuses saved.')).toBeVisible();

  const sim = await adminContext.newPage();
  await sim.goto('/admin/chat-simulator');
  await expect(sim.getByRole('heading', { name: 'Chat Simulator' })).toBeVisible();
  const fan = await linkedChatter(browser, sim, admin, 'Streak', 0, { keepPage: true });
  const viewer = fan.page;

  // Whatever earlier journeys left: the stream ends first.
  if (await sim.getByRole('button', { name: 'End the stream' }).isVisible()) await endStream(sim);
  // Offline chat counts for nothing.
  await postInChat(sim, fan.kickName, 'anyone here?');

  await goLive(sim);
  await postInChat(sim, fan.kickName, 'first stream, hi');
  await endStream(sim);
  await goLive(sim);
  await postInChat(sim, fan.kickName, 'back again for the second');
  await endStream(sim);

  // The profile: a streak of 2 with its badge.
  await viewer.goto('/');
  await viewer.locator('#kb-user-menu').click();
  await viewer.getByRole('button', { name: 'Profile', exact: true }).click();
  const profile = viewer.getByRole('dialog', { name: 'Profile Settings' });
  const streak = profile.getByTestId('stream-streak');
  await expect(streak.getByTestId('streak-badge')).toHaveText(/2-stream streak/);
  await expect(streak.getByTestId('streak-current')).toHaveText('2 streams');
  await screenshot(viewer, 'stream-streak-profile');
  await expectAccessible(viewer);
  await viewer.keyboard.press('Escape');

  // My activity: the bonus, once.
  await viewer.goto('/activity');
  const ledger = viewer.getByRole('region', { name: 'My ledger' });
  await expect(ledger.getByText('Stream streak bonus')).toHaveCount(1);
  await expect(ledger).toContainText('25');
  await screenshot(viewer, 'stream-streak-activity');
  await Promise.all([adminContext.close(), viewer.context().close()]);
});
