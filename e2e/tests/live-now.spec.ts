/**
 * Viewers find what is live: an admin starts a Split or Steal game, a Deal or No Deal game and a
 * prediction; a signed-out visitor sees them under "Live now" on the home page, reaches each game by
 * its link, and gets back to the site from the Deal or No Deal stage (outside the layout). The home
 * tiles lead to /live, and the hero says "Live on Kick" only while Kick says the stream is live.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { clearPredictions } from './chat-helpers';
import { DEMO_ADMIN, DEMO_MODERATOR, expectAccessible, keepScreenshot, signIn } from './helpers';

const XRW = { 'X-Requested-With': 'kickback' };

async function adminPost(admin: Page, url: string, data: unknown = {}) {
  const res = await admin.request.post(url, { data, headers: XRW });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

async function createSplitOrSteal(admin: Page): Promise<string> {
  await admin.goto('/createsplitorsteal');
  await admin.getByLabel('Reward Price').fill('42');
  await admin.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(admin.getByText('Game successfully created.')).toBeVisible();
  await expect(admin).toHaveURL(/\/game\/splitorsteal\/[0-9a-f-]{36}$/);
  return new URL(admin.url()).pathname;
}

async function createDealOrNoDeal(admin: Page, player: string): Promise<string> {
  await admin.goto('/createdealornodeal');
  await admin.getByLabel('Player 1', { exact: true }).fill(player);
  await admin.getByRole('option', { name: new RegExp(player) }).click();
  await admin.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(admin.getByText('Game successfully created.')).toBeVisible();
  await expect(admin).toHaveURL(/\/game\/dealornodeal\/[0-9a-f-]{36}$/);
  return new URL(admin.url()).pathname;
}

test('a visitor finds the running games and the prediction under Live now, opens them, and gets back', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN, { demo: true });

  // The stream is offline: the hero does not claim it is live.
  await adminPost(admin, '/api/admin/chat/live', { isLive: false });
  await page.goto('/');
  const eyebrow = page.getByTestId('stream-eyebrow');
  await expect(eyebrow).toContainText('Offline');
  await expect(eyebrow).not.toContainText('Live on Kick');

  const sos = await createSplitOrSteal(admin);
  const dond = await createDealOrNoDeal(admin, DEMO_MODERATOR.name);
  const question = `Will the next slot pay ${Date.now() % 1000}x?`;
  const prediction = (await adminPost(admin, '/api/predictions', {
    question,
    answers: [
      { text: 'Yes', color: '#53fc18' },
      { text: 'No', color: '#ff4d6d' },
    ],
  })) as { id: string };
  await adminPost(admin, '/api/admin/chat/live', { isLive: true });

  // The visitor's home page lists them, with the stream live.
  await page.reload();
  await expect(eyebrow).toContainText('Live on Kick');
  const liveNow = page.getByTestId('live-now');
  await expect(liveNow.getByRole('heading', { name: 'Live now' })).toBeVisible();
  await expect(liveNow.locator(`a[href="${sos}"]`)).toHaveText('Watch the game →');
  await expect(liveNow.locator(`a[href="${dond}"]`)).toBeVisible();
  await expect(liveNow.getByRole('article', { name: /^Prediction: Bets open/ })).toContainText(question);
  await keepScreenshot(page, { path: '/tmp/h6-live-now-home.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await liveNow.scrollIntoViewIfNeeded();
  await keepScreenshot(page, { path: '/tmp/h6-live-now-home-390.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectAccessible(page);

  // The Split or Steal game by its link.
  await liveNow.locator(`a[href="${sos}"]`).click();
  await expect(page).toHaveURL(new RegExp(`${sos}$`));
  await expect(page.getByText('42', { exact: false }).first()).toBeVisible();

  // The tile "Live game shows" leads to /live, which lists everything; the Deal or No Deal stage from there.
  await page.goto('/');
  await page.getByRole('link', { name: 'See what is live →' }).click();
  await expect(page).toHaveURL(/\/live$/);
  // It opens at its top, not scrolled as far as the tile was on the home page.
  await expect(page.getByRole('heading', { name: 'Live now', level: 1 })).toBeInViewport();
  await expect(page.getByTestId('live-now').locator(`a[href="${sos}"]`)).toBeVisible();
  await keepScreenshot(page, { path: '/tmp/h6-live-page.png' });
  await page.getByTestId('live-now').locator(`a[href="${dond}"]`).click();
  await expect(page).toHaveURL(new RegExp(`${dond}$`));
  await expect(page.getByRole('region', { name: 'Deal or No Deal game' })).toBeVisible();
  const back = page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: '← Back to Kickback' });
  await expect(back).toBeVisible();
  await keepScreenshot(page, { path: '/tmp/h6-dond-back-link.png' });
  await back.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('live-now')).toBeVisible();

  // Ended games and a cancelled prediction leave the list; the stream ends.
  await adminPost(admin, `/api/SplitOrStealGame/${sos.split('/').pop()}/cancel`);
  await adminPost(admin, `/api/DealOrNoDeal/${dond.split('/').pop()}/cancel`);
  await adminPost(admin, `/api/predictions/${prediction.id}/cancel`);
  await adminPost(admin, '/api/admin/chat/live', { isLive: false });
  await page.reload();
  await expect(page.getByTestId('live-now').locator(`a[href="${sos}"]`)).toHaveCount(0);
  await expect(page.getByTestId('live-now').locator(`a[href="${dond}"]`)).toHaveCount(0);
  await expect(page.getByTestId('live-now')).not.toContainText(question);
  await expect(eyebrow).toContainText('Offline');
  // The cancelled prediction leaves the overlay too, as a streamer would hide it.
  await clearPredictions(admin);
  await adminContext.close();
});
