/**
 * Chat predictions in the browser: the admin opens a prediction from the Admin dropdown, two
 * chatters (linked through !verify) bet through the Chat Simulator, the OBS overlay in a signed-out
 * context at 1920×1080 follows — counts and bars, then BETS ARE CLOSED, the result with winners
 * and losers, and a cancelled one. Screenshots of states 1–4 over a dark test background go to
 * /tmp/prediction-*.png (the page itself stays transparent, which the test checks).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { clearPredictions, linkedChatter, postInChat } from './chat-helpers';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, screenshot, signIn } from './helpers';

/** The overlay page is transparent; for the screenshot it sits over a dark "stream". */
async function shot(overlay: Page, name: string) {
  const background = await overlay.evaluate(() => [
    getComputedStyle(document.documentElement).backgroundColor,
    getComputedStyle(document.body).backgroundColor,
    getComputedStyle(document.body).backgroundImage,
  ]);
  expect(background).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)', 'none']);
  await overlay.evaluate(() =>
    document.documentElement.style.setProperty('background', 'linear-gradient(135deg, #1b2230, #0c0f14)', 'important'),
  );
  await keepScreenshot(overlay, { path: `/tmp/prediction-${name}.png` });
  await overlay.evaluate(() => document.documentElement.style.removeProperty('background'));
}

test('admin opens a prediction, chatters bet from chat, the overlay follows through lock, result and cancel', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN, { demo: true });
  // The shared server may hold another journey's finished prediction: the overlay starts hidden.
  await clearPredictions(admin);
  const sim = await adminContext.newPage();
  await sim.goto('/admin/chat-simulator');
  await expect(sim.getByRole('heading', { name: 'Chat Simulator' })).toBeVisible();

  const ann = await linkedChatter(browser, sim, admin, 'Ann', 2000);
  const ben = await linkedChatter(browser, sim, admin, 'Ben', 2000);

  // The overlay: public, signed out, an OBS-sized browser source. Hidden (state 0) at first.
  const overlayContext = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const overlay = await overlayContext.newPage();
  await overlay.goto('/kick/prediction/overlay');
  await expect(overlay.getByRole('main', { name: 'Prediction overlay' })).toBeAttached();
  await expect(overlay.locator('.kbp-panel')).toHaveCount(0);
  await expect(overlay.locator('header, nav, footer')).toHaveCount(0); // outside the shared layout

  // The admin opens a prediction from the Admin dropdown.
  await admin.goto('/');
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'Predictions' }).click();
  await expect(admin.getByRole('heading', { name: 'Predictions', exact: true })).toBeVisible();
  await admin.getByLabel('Question').fill('Will the streamer clutch this round?');
  await admin.getByLabel('Answer 1', { exact: true }).fill('Clutch');
  await admin.getByLabel('Answer 2', { exact: true }).fill('Choke');
  await admin.getByRole('button', { name: 'Open prediction' }).click();
  await expect(admin.getByText('Prediction opened.')).toBeVisible();
  await expect(admin.getByTestId('prediction-status')).toHaveText('ACTIVE');
  await expectAccessible(admin);
  await screenshot(admin, 'prediction-admin');
  await keepScreenshot(admin, { path: '/tmp/prediction-admin.png', fullPage: true });

  const panel = overlay.locator('.kbp-panel');
  await expect(panel).toContainText('Will the streamer clutch this round?');
  await expect(panel).toContainText('ACTIVE');
  await expect(panel).toContainText('!bet [OPTION] [POINTS]');
  await expect(panel).toContainText('example: !bet 1 500');
  const answer = (id: number) => overlay.locator(`[data-answer="${id}"]`);
  await expect(answer(1)).toContainText('0%');

  // Chatters bet through the simulator; the overlay's counts and bars move.
  await expect(await postInChat(sim, ann.kickName, '!bet 1 1.5k')).toContainText('bet taken: 1.5k points on option 1');
  await expect(answer(1).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(answer(1)).toContainText('1.5k pts');
  await expect(await postInChat(sim, ben.kickName, '!bet 2 500')).toContainText('bet taken: 500 points on option 2');
  await expect(answer(2).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
  await expect(answer(1).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
  await expect(await postInChat(sim, ben.kickName, '!bet 1 10')).toContainText('one answer per prediction');
  await expect(admin.getByRole('region', { name: 'Current prediction' })).toContainText('1 bettor');
  await shot(overlay, 'state-1-active');
  await keepScreenshot(sim, { path: '/tmp/prediction-chat-simulator-replies.png', fullPage: true });

  // Lock: 3 BETS ARE CLOSED; the admin is told.
  await admin.getByRole('button', { name: 'Lock' }).click();
  await expect(admin.getByText('Prediction locked: no more bets.')).toBeVisible();
  await expect(panel).toContainText('BETS ARE CLOSED');
  await expect(panel).not.toContainText('!bet [OPTION] [POINTS]');
  await expect(await postInChat(sim, ann.kickName, '!bet 1 10')).toContainText('no prediction is taking bets');
  await shot(overlay, 'state-3-closed');

  // Resolve with answer 1: 2 "Answer is 1", winners and losers.
  await admin.getByLabel('Winning answer').selectOption('1');
  await admin.getByRole('button', { name: 'Resolve' }).click();
  await expect(admin.getByText('Prediction resolved: "Clutch" won; the pool is paid out.')).toBeVisible();
  await expect(panel).toContainText('Answer is 1');
  await expect(overlay.getByRole('list', { name: 'Winners' })).toContainText(`${ann.name}+500`);
  await expect(overlay.getByRole('list', { name: 'Losers' })).toContainText(`${ben.name}-500`);
  await shot(overlay, 'state-2-result');
  await expect(admin.getByRole('table', { name: 'Past predictions' })).toContainText('Resolved (answer 1)');

  // Another one, cancelled: 4 CANCELLED; then hidden: the overlay shows nothing.
  await admin.getByLabel('Question').fill('First blood in under a minute?');
  await admin.getByLabel('Answer 1', { exact: true }).fill('Yes');
  await admin.getByLabel('Answer 2', { exact: true }).fill('No');
  await admin.getByRole('button', { name: 'Open prediction' }).click();
  await expect(panel).toContainText('First blood in under a minute?');
  // A new prediction starts with no winning answer chosen: Resolve is not one click away.
  const current = admin.getByRole('region', { name: 'Current prediction' });
  await expect(current).toContainText('First blood in under a minute?');
  await expect(admin.getByLabel('Winning answer')).toHaveValue('');
  await expect(admin.getByRole('button', { name: 'Resolve' })).toBeDisabled();
  await expect(await postInChat(sim, ben.kickName, '!bet 2 100')).toContainText('bet taken');
  await admin.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(admin.getByText('Prediction cancelled: every bet is refunded.')).toBeVisible();
  await expect(panel).toContainText('CANCELLED');
  await shot(overlay, 'state-4-cancelled');
  await admin.getByRole('button', { name: 'Hide' }).click();
  await expect(admin.getByText('Prediction hidden from the overlay.')).toBeVisible();
  await expect(overlay.locator('.kbp-panel')).toHaveCount(0);

  // Readable at 1280×720 too.
  await overlay.setViewportSize({ width: 1280, height: 720 });
  await keepScreenshot(admin, { path: '/tmp/prediction-admin-after.png', fullPage: true });
});
