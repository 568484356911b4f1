/**
 * The stream's live state in the browser: the admin sends Kick's "went live" / "ended" from the
 * Chat Simulator, the simulator and the Predictions page show it, and a linked chatter's plain
 * message earns chat-activity points only while the stream is live — seen on the chatter's My
 * activity (balance and ledger). Screenshots of both admin pages at 1366 and 390 px wide.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { linkedChatter, postInChat } from './chat-helpers';
import { DEMO_ADMIN, expectAccessible, screenshot, signIn } from './helpers';
import { CHAT_POINTS_FLUSH_MS } from './suite-server';

const CHAT_POINTS = 'Chatting on stream';

async function shots(page: Page, name: string) {
  await page.setViewportSize({ width: 1366, height: 800 });
  await screenshot(page, `${name}-1366`);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('going live and ending the stream from the Chat Simulator; chat points only while live', async ({ browser }) => {
  test.setTimeout(240_000);
  const adminContext = await browser.newContext();
  const sim = await adminContext.newPage();
  await signIn(sim, DEMO_ADMIN, { demo: true });
  await sim.goto('/admin/chat-simulator');
  await expect(sim.getByRole('heading', { name: 'Chat Simulator' })).toBeVisible();
  const predictions = await adminContext.newPage();
  await predictions.goto('/admin/predictions');
  await expect(predictions.getByRole('heading', { name: 'Predictions', exact: true })).toBeVisible();

  const fan = await linkedChatter(browser, sim, sim, 'Live', 0, { keepPage: true });
  const viewer = fan.page;

  const state = (page: Page) => page.getByTestId('stream-state');
  // Whatever earlier journeys left: live first, then the stream ends.
  const goLive = sim.getByRole('button', { name: 'Go live' });
  if (await goLive.isVisible()) await goLive.click();
  await expect(state(sim)).toContainText('Live');
  await expect(state(predictions)).toContainText('Live'); // the Predictions page follows by itself
  await sim.getByRole('button', { name: 'End the stream' }).click();
  await expect(state(sim).getByLabel('Stream offline')).toHaveText('Offline');
  await expect(sim.getByRole('button', { name: 'Go live' })).toBeVisible();
  await expect(state(predictions).getByLabel('Stream offline')).toHaveText('Offline');
  await expect(state(predictions)).toContainText('since');
  await expectAccessible(sim);
  await expectAccessible(predictions);
  await shots(sim, 'stream-offline-simulator');
  await shots(predictions, 'stream-offline-predictions');

  // Offline: a plain message earns nothing, even after several of the points' flushes.
  const line = await postInChat(sim, fan.kickName, 'gg, is the stream over?');
  await expect(line).toContainText(`site user ${fan.name}`);
  await expect(line).toContainText('no command');
  await viewer.waitForTimeout(4 * CHAT_POINTS_FLUSH_MS);
  await viewer.goto('/activity');
  const ledger = viewer.getByRole('region', { name: 'My ledger' });
  await expect(ledger).toContainText('Nothing yet');
  await expect(viewer.getByText(/^Balance:/)).toContainText(/Balance: 0.00 points/);

  // Live again: the next message earns the minute's points (5 by default), once flushed.
  await sim.getByRole('button', { name: 'Go live' }).click();
  await expect(state(sim).getByLabel('Stream live')).toHaveText('Live');
  await expect(state(predictions).getByLabel('Stream live')).toHaveText('Live');
  await shots(sim, 'stream-live-simulator');
  await shots(predictions, 'stream-live-predictions');
  await postInChat(sim, fan.kickName, 'we are live, lets go');
  // The balance and the ledger are two reads: a reload may land between them and the flush's commit.
  // Each attempt waits for the page to show its ledger (rows or the empty line) before reading it:
  // on a starved machine the first render alone outlasts a short limit (docs/conventions.md#timeouts).
  await expect(async () => {
    await viewer.reload();
    await expect(
      ledger
        .locator('tbody tr')
        .first()
        .or(ledger.getByText(/Nothing yet/)),
    ).toBeVisible();
    await expect(ledger).toContainText(CHAT_POINTS, { timeout: 1_000 });
    await expect(viewer.getByText(/^Balance:/)).toContainText(/Balance: 5.00 points/, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(ledger.getByRole('row').filter({ hasText: CHAT_POINTS })).toHaveCount(1);
  await expect(ledger.getByRole('row').filter({ hasText: CHAT_POINTS })).toContainText('+5.00 pts');
  await viewer.context().close();
  await adminContext.close();
});
