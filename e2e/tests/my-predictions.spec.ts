/**
 * My activity's Predictions in the browser: a viewer linked to Kick bets through the Chat Simulator
 * on four predictions the admin opens; one resolves their way (won), one the other bettor's way
 * (lost), one on an answer nobody bet on (everyone refunded) and one is cancelled. The viewer's My
 * activity lists each with its stake, result and what it did to the balance. Screenshots at 1366
 * and 390 px wide.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { linkedChatter, postInChat } from './chat-helpers';
import { DEMO_ADMIN, expectAccessible, screenshot, signIn } from './helpers';

async function open(admin: Page, question: string) {
  await admin.getByLabel('Question').fill(question);
  await admin.getByLabel('Answer 1', { exact: true }).fill('Yes');
  await admin.getByLabel('Answer 2', { exact: true }).fill('No');
  await admin.getByRole('button', { name: 'Open prediction' }).click();
  await expect(admin.getByTestId('prediction-status')).toHaveText('ACTIVE');
}

async function resolve(admin: Page, answer: 1 | 2) {
  await admin.getByLabel('Winning answer').selectOption(String(answer));
  await admin.getByRole('button', { name: 'Resolve' }).click();
  await expect(admin.getByTestId('prediction-status')).toHaveText(`Answer is ${answer}`);
}

test('a bettor sees won, lost, refunded and cancelled predictions with their amounts in My activity', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN, { demo: true });
  const sim = await adminContext.newPage();
  await sim.goto('/admin/chat-simulator');
  await expect(sim.getByRole('heading', { name: 'Chat Simulator' })).toBeVisible();
  const me = await linkedChatter(browser, sim, admin, 'Bettor', 1000, { keepPage: true });
  const other = await linkedChatter(browser, sim, admin, 'Rival', 1000);
  await admin.goto('/admin/predictions');
  await expect(admin.getByRole('heading', { name: 'Predictions', exact: true })).toBeVisible();
  const bet = async (who: { kickName: string }, text: string) =>
    expect(await postInChat(sim, who.kickName, text)).toContainText('bet taken');

  // Won: 300 on Yes against the rival's 100 on No → 400 back, +100.
  await open(admin, 'Won: first kill within a minute?');
  await bet(me, '!bet 1 300');
  await bet(other, '!bet 2 100');
  await resolve(admin, 1);

  // Lost: 200 on No, the rival's 50 on Yes wins → −200.
  await open(admin, 'Lost: does the streamer buy armour?');
  await bet(me, '!bet 2 200');
  await bet(other, '!bet 1 50');
  await resolve(admin, 1);

  // Nobody on the winning answer: the 150 staked comes back.
  await open(admin, 'Refunded: a knife kill this round?');
  await bet(me, '!bet 1 150');
  await resolve(admin, 2);

  // Cancelled: the 75 staked comes back.
  await open(admin, 'Cancelled: overtime?');
  await bet(me, '!bet 2 75');
  await admin.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(admin.getByTestId('prediction-status')).toHaveText('CANCELLED');
  await admin.getByRole('button', { name: 'Hide' }).click(); // the overlay shows nothing again
  await expect(admin.getByTestId('prediction-status')).toHaveText('HIDDEN');

  const page = me.page;
  await page.goto('/activity');
  const mine = page.getByRole('region', { name: 'My predictions' });
  const row = (question: string) => mine.getByRole('row').filter({ hasText: question });
  await expect(mine.getByRole('row')).toHaveCount(5); // the header and four bets
  await expect(row('Won: first kill')).toContainText('your answer: Yes');
  await expect(row('Won: first kill')).toContainText('300.00 pts');
  await expect(row('Won: first kill')).toContainText('Won');
  await expect(row('Won: first kill')).toContainText('+100.00 pts');
  await expect(row('Lost: does the streamer')).toContainText('your answer: No');
  await expect(row('Lost: does the streamer')).toContainText('200.00 pts');
  await expect(row('Lost: does the streamer')).toContainText('Lost');
  await expect(row('Lost: does the streamer')).toContainText('−200.00 pts');
  await expect(row('Refunded: a knife kill')).toContainText('150.00 pts');
  await expect(row('Refunded: a knife kill')).toContainText('Refunded: nobody won');
  await expect(row('Refunded: a knife kill')).toContainText('±0 pts');
  await expect(row('Cancelled: overtime')).toContainText('75.00 pts');
  await expect(row('Cancelled: overtime')).toContainText('Cancelled: refunded');
  await expect(row('Cancelled: overtime')).toContainText('±0 pts');
  // Newest first: the cancelled one on top, the won one last.
  await expect(mine.getByRole('row').nth(1)).toContainText('Cancelled: overtime');
  await expect(mine.getByRole('row').nth(4)).toContainText('Won: first kill');
  // 1000 + 100 − 200 = 900.
  await expect(page.getByText(/^Balance:/)).toContainText(/Balance: 900\.00 points/);
  await expectAccessible(page);
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await screenshot(page, `my-activity-predictions-${width}`);
    // On a phone the stake and date move under the question, so the result fits without scrolling sideways.
    const fits = await mine.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
    expect(fits, `${width} px`).toBe(true);
  }
  await page.context().close();
  await adminContext.close();
});
