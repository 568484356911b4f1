/**
 * How to earn points (docs/features/earning-points.md): a visitor reaches it from the home page and
 * the store; the admin reaches it from the header's balance, changes the points per sub on Admin →
 * Support Rewards, and the page shows the new amount at once. axe on the page at desktop and phone
 * width. Screenshots: e2e/screenshots/earn-*.png.
 */
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, screenshot, signIn } from './helpers';

test('the home page, the store and the header balance lead to How to earn points, which shows the sub reward the admin just set', async ({
  page,
}) => {
  // Home page → the "Supporting pays" card.
  await page.goto('/');
  await page.getByRole('link', { name: 'How to earn points →' }).click();
  await expect(page).toHaveURL(/\/earn$/);
  await expect(page.getByRole('heading', { name: 'How to earn points', level: 1 })).toBeVisible();
  for (const way of ['Chat while the stream is live', 'Subscribe', 'Gift subs', 'Send KICKs', 'Follow the channel']) {
    await expect(page.getByRole('heading', { name: way, level: 3 })).toBeVisible();
  }
  await expect(page.getByTestId('earn-gift')).toContainText('the points go to you, the gifter');
  await expectAccessible(page);

  // The store → the link under its title.
  await page.goto('/store');
  await page.getByRole('link', { name: 'How to earn points →' }).click();
  await expect(page.getByRole('heading', { name: 'How to earn points', level: 1 })).toBeVisible();

  // The admin: the header's balance leads there too.
  await signIn(page, DEMO_ADMIN, { demo: true });
  await page.goto('/');
  await page
    .locator('#kb-nav')
    .getByRole('link', { name: /how to earn points/ })
    .click();
  await expect(page.getByRole('heading', { name: 'How to earn points', level: 1 })).toBeVisible();
  await expect(page.getByTestId('earn-balance')).toBeVisible();

  // A new sub amount, unique to this attempt (a retry runs on the same server).
  const amount = 600 + (Date.now() % 300);
  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await page.getByRole('link', { name: 'Support Rewards', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Support Rewards', level: 1 })).toBeVisible();
  await page.getByLabel('Points per new or renewed sub').fill(String(amount));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Support rewards saved.')).toBeVisible();

  await page
    .locator('#kb-nav')
    .getByRole('link', { name: /how to earn points/ })
    .click();
  await expect(page.getByTestId('earn-sub')).toContainText(`${amount.toLocaleString('en-US')}.00 points`);
  await expect(page.getByTestId('earn-sub')).toContainText('for each new or renewed sub on Kick');
  await expectAccessible(page);
  await screenshot(page, 'earn-desktop');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('earn-sub')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await screenshot(page, 'earn-phone');
});
