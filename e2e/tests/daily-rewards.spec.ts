import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, newPerson, screenshot, signIn } from './helpers';

/** Amounts as the site writes them: 2 decimals, thousands separated. */
const twoDecimals = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const today = () => new Date().getUTCDate();
const MY_ACTIVITY = '/activity';
const card = (page: Page, day: number) => page.locator(`button.kb-day[data-day="${day}"]`);

test('the Daily Rewards button leads to the calendar; a visitor sees the month and must log in to claim', async ({
  page,
}) => {
  const claims: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/DailyReward/')) claims.push(r.url());
  });
  await page.goto('/');
  await page.locator('#kb-nav').getByRole('link', { name: 'Daily Rewards', exact: true }).click();
  await expect(page).toHaveURL(/\/DailyRewards$/);
  await expect(page.getByRole('link', { name: /Roobet Daily Rewards/ })).toBeVisible();
  await page.waitForTimeout(350); // the page fade
  await screenshot(page, 'daily-rewards-button');
  await page.getByRole('link', { name: /Roobet Daily Rewards/ }).click();
  await expect(page).toHaveURL(/\/dailyrewardroobet$/);

  await expect(page.getByText(/claim 100% of the earnings from your wagering on code/)).toBeVisible();
  await expect(page.getByText('Delivery can take up to 24 hours.')).toBeVisible();
  const d = today();
  await expect(card(page, d)).toHaveAttribute('data-state', 'available');
  await expect(card(page, d)).toContainText('Available');
  if (d > 1) await expect(card(page, d - 1)).toHaveAttribute('data-state', 'timeout');
  const last = await page.locator('button.kb-day').count();
  if (d < last) {
    await expect(card(page, d + 1)).toHaveAttribute('data-state', 'locked');
    await expect(card(page, d + 1)).toBeDisabled();
  }
  // Eight case colours by day index.
  await expect(card(page, 1)).toHaveClass(/kb-case-0/);
  await expect(card(page, 9)).toHaveClass(/kb-case-0/);
  await expect(card(page, 8)).toHaveClass(/kb-case-7/);

  await card(page, d).click();
  await expect(page.getByText('First log in please.')).toBeVisible();
  expect(claims).toEqual([]);
  await expect(card(page, d)).toHaveAttribute('data-state', 'available');
  await screenshot(page, 'daily-rewards-calendar-visitor');
  await expectAccessible(page);
});

test('a user links Roobet, claims today: toast, coin, the card turns over; the payout appears for the admin', async ({
  page,
  browser,
}, testInfo) => {
  // A simulator player who wagered under the code yesterday; a retry takes another, since the
  // first attempt's viewer holds the first (the battle and milestones journeys leave both alone).
  const roobetName = testInfo.retry ? 'PlinkoPete' : 'SpinDoctor';
  const person = newPerson('Claimer');
  await signIn(page, person);
  await page.goto('/dailyrewardroobet');
  // Without a Roobet username: the page says what to do.
  await expect(page.getByText('Link your Roobet username in your profile to claim your daily rewards.')).toBeVisible();
  await expect(page.getByText('Link your Roobet username in your profile to claim.', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Open profile' }).click();
  const profile = page.getByRole('dialog', { name: 'Profile Settings' });
  await profile.getByLabel('Roobet username').fill(roobetName);
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings successfully updated.')).toBeVisible();
  await expect(profile.getByTestId('partner-link-RoobetName')).toContainText('Pending verification');
  await profile.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByRole('button', { name: 'Open profile' })).toHaveCount(0);
  // Today's case says why it cannot be claimed yet (the server's answer), instead of glowing.
  await expect(card(page, today())).toHaveAttribute('data-state', 'unavailable');
  await expect(card(page, today())).toContainText('Roobet name not verified yet');
  // Pending: only the pending message, no hint to link a name that is already saved.
  await expect(page.getByTestId('claim-why')).toContainText('Your Roobet username is pending verification');
  await expect(page.getByText(/Link your Roobet username/)).toHaveCount(0);
  await keepScreenshot(page, { path: '/tmp/h6-daily-rewards-pending.png', fullPage: true });

  // A Roobet name is a claim until an admin verifies it (docs/features/partner-links.md): until then no daily reward.
  const pending = await page.request.post('/api/DailyReward/GetDailyRewardRoobet', {
    headers: { 'X-Requested-With': 'kickback' },
  });
  expect(pending.status()).toBe(409);
  expect((await pending.json()).message).toContain('pending verification');
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN, { demo: true });
  await admin.goto('/admin/verification');
  const claimRow = admin.getByTestId('claims-table').locator('tr', { hasText: person.name });
  await claimRow.getByRole('button', { name: 'Approve' }).click();
  await admin.getByRole('dialog', { name: 'Approve claim' }).getByRole('button', { name: 'Approve claim' }).click();
  await expect(admin.getByText('Claim approved.')).toBeVisible();
  // Verified: today's case is Available (the page asks the server again on reload or focus).
  await page.reload();
  await expect(card(page, today())).toHaveAttribute('data-state', 'available');

  const played: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/sounds/coin.wav')) played.push(r.url());
  });
  const d = today();
  const claim = page.waitForResponse((r) => r.url().endsWith('/api/DailyReward/GetDailyRewardRoobet'));
  await card(page, d).click();
  const res = await claim;
  expect(res.status()).toBe(200);
  const { gemAmount } = (await res.json()) as { gemAmount: number };
  expect(gemAmount).toBeGreaterThan(0);
  await expect(page.getByText(`Earned ${twoDecimals(gemAmount)} coins.`)).toBeVisible();
  await expect(card(page, d)).toHaveAttribute('data-state', 'claimed');
  await expect(card(page, d).locator('.kb-day-inner')).toHaveClass(/kb-day-flipped/);
  await expect(card(page, d).getByTestId('day-amount')).toHaveText(gemAmount.toFixed(2));
  await expect.poll(() => played.length).toBeGreaterThan(0);
  await page.waitForTimeout(700); // the turn
  // The toast closes by itself after 5 s (clicking it raced that close on a loaded machine).
  await expect(page.getByText(`Earned ${twoDecimals(gemAmount)} coins.`)).toHaveCount(0, { timeout: 15_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'daily-rewards-claimed');
  await keepScreenshot(card(page, d), { path: 'screenshots/daily-rewards-claimed-card.png' });

  // After a reload the claimed day is still claimed with its amount; a second claim is refused.
  await page.reload();
  await expect(card(page, d)).toHaveAttribute('data-state', 'claimed');
  await expect(card(page, d).getByTestId('day-amount')).toHaveText(gemAmount.toFixed(2));
  const again = await page.request.post('/api/DailyReward/GetDailyRewardRoobet', {
    headers: { 'X-Requested-With': 'kickback' },
  });
  expect(again.status()).toBe(409);

  // Phone layout.
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'daily-rewards-phone');

  // The payout appears for the admin in the Fulfilment queue, ready to deliver.
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'Fulfilment', exact: true }).click();
  await expect(admin).toHaveURL(/\/admin\/fulfilment/);
  await admin.getByLabel('Filter by kind').selectOption('daily_reward');
  const payout = admin
    .getByRole('row')
    .filter({ hasText: person.name })
    .filter({ hasText: `to ${roobetName}` });
  await expect(payout).toHaveCount(1);
  await expect(payout).toContainText('Daily reward (Roobet)');
  await expect(payout).toContainText(`$${gemAmount.toFixed(2)}`);
  await expect(payout).toContainText(/pending/i);
  await screenshot(admin, 'daily-rewards-fulfilment');

  // The admin delivers it with a tip id; the user follows it in My activity.
  await payout.getByRole('button', { name: /^Mark Daily reward .* delivered$/ }).click();
  await admin.getByLabel(/^Note/).fill('Tip 8812');
  await admin.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(admin.getByText('Marked as delivered.')).toBeVisible();
  await adminContext.close();

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(MY_ACTIVITY);
  const mine = page.getByTestId('my-payouts').getByRole('row', { name: /Daily reward \(Roobet\)/ });
  await expect(mine).toContainText(`$${gemAmount.toFixed(2)}`);
  await expect(mine).toContainText('Delivered');
  await expect(mine).toContainText('Tip 8812');
  await screenshot(page, 'daily-rewards-my-activity');
});

test('an admin sets the reward policies', async ({ page }) => {
  await signIn(page, DEMO_ADMIN, { demo: true });
  await page.goto('/admin/daily-rewards');
  await expect(page.getByRole('heading', { name: 'Daily Reward Policies' })).toBeVisible();
  const roobet = page.getByRole('form', { name: /Type 5 · Roobet/ });
  await roobet.getByLabel('Affiliate earnings (%)').fill('0.75');
  await roobet.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Roobet daily reward saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: /Type 5 · Roobet/ }).getByLabel('Affiliate earnings (%)')).toHaveValue(
    '0.75',
  );
  await screenshot(page, 'daily-rewards-policies');
  await expectAccessible(page);
});

test('the VIP page explains the code, the 3-week evaluation and the benefits', async ({ page }) => {
  await page.goto('/');
  await page.locator('#kb-nav').getByRole('link', { name: 'Roobet VIP', exact: true }).click();
  await expect(page).toHaveURL(/\/RoobetVip$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bring your VIP status to Roobet');
  await expect(page.getByRole('heading', { name: 'The code requirement' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'The 3-week evaluation' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Benefits' })).toBeVisible();
  await screenshot(page, 'roobet-vip');
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'roobet-vip-phone');
});
