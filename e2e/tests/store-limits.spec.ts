/**
 * docs/features/store-limits.md in the browser: the admin gives a product a limit of one per week
 * in the product form; a viewer buys it once and the second purchase is refused with the next
 * date; the viewer asks to be told when a sold-out product is back, the admin restocks it, and the
 * viewer finds the notification from the user menu.
 * Screenshots: e2e/screenshots/store-limits-*.png.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, newPerson, screenshot, signIn } from './helpers';

const headers = { 'x-requested-with': 'kickback' };

async function personPage(browser: Browser, who: { name: string; steamId?: string }, demo = false) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto('/');
  await signIn(page, who, { demo });
  return page;
}

async function grant(admin: Page, name: string, points: number) {
  const found = await admin.request.get(`/api/admin/users?query=${encodeURIComponent(name)}`, { headers });
  const id = ((await found.json()) as { items: Array<{ id: string }> }).items[0]!.id;
  const res = await admin.request.post(`/api/admin/users/${id}/balance`, {
    headers,
    data: { currency: 'points', amount: points, reason: 'e2e store limits' },
  });
  expect(res.status()).toBe(200);
}

test('one per week: bought once, refused with the next date; a restock notifies the viewer who asked', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const tag = Math.random().toString(36).slice(2, 7);
  const weekly = `E2E Weekly Crate ${tag}`;
  const rare = `E2E Rare Knife ${tag}`;
  const admin = await personPage(browser, DEMO_ADMIN, true);
  const buyer = newPerson('Limited');
  const viewer = await personPage(browser, buyer);
  await grant(admin, buyer.name, 5000);

  // Admin → Products: one per week, through the form's Limits.
  await admin.goto('/admin/products');
  await admin.getByRole('button', { name: 'New product' }).click();
  let form = admin.getByRole('dialog', { name: 'New product' });
  await form.getByLabel('Name').fill(weekly);
  await form.getByLabel('Price (points)').fill('100');
  await form.getByLabel('Category').fill('E2E');
  await form.getByLabel('Per viewer').fill('1');
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(form.getByText('Choose the window the limit counts in.')).toBeVisible();
  await form.getByLabel('Window').selectOption('week');
  await screenshot(admin, 'store-limits-admin-form');
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(admin.getByText(`${weekly} added to the store.`)).toBeVisible();

  // A sold-out product for "notify me".
  await admin.getByRole('button', { name: 'New product' }).click();
  form = admin.getByRole('dialog', { name: 'New product' });
  await form.getByLabel('Name').fill(rare);
  await form.getByLabel('Price (points)').fill('50');
  await form.getByLabel('Category').fill('E2E');
  await form.getByLabel('Stock').fill('0');
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(admin.getByText(`${rare} added to the store.`)).toBeVisible();

  // The viewer buys the weekly item once; the second purchase says when the next one is.
  await viewer.goto('/store');
  const card = viewer.getByRole('article', { name: weekly });
  await expect(card).toContainText('Limit 1 per week');
  const buy = async () => {
    await card.getByRole('button', { name: `Buy ${weekly}` }).click();
    await viewer
      .getByRole('dialog', { name: 'Confirm purchase' })
      .getByRole('button', { name: /^Buy for/ })
      .click();
  };
  await buy();
  await expect(viewer.getByText(`You bought ${weekly}.`, { exact: false })).toBeVisible();
  await expect(viewer.getByRole('dialog', { name: 'Confirm purchase' })).toHaveCount(0);
  await buy();
  await expect(viewer.getByText('Limit: 1 per week — next on Monday 00:00 UTC.')).toBeVisible();
  await screenshot(viewer, 'store-limits-refused');
  await viewer.getByRole('dialog', { name: 'Confirm purchase' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(viewer.getByTestId('store-balance')).toHaveText('You have 4,900.00 points');

  // Notify me on the sold-out product.
  const rareCard = viewer.getByRole('article', { name: rare });
  await rareCard.getByRole('button', { name: `Notify me when ${rare} is back in stock` }).click();
  await expect(viewer.getByText(`We'll let you know when ${rare} is back in stock.`)).toBeVisible();
  await expect(rareCard.getByRole('button', { name: `Notify me when ${rare} is back in stock` })).toHaveText(
    'We’ll notify you',
  );

  // The admin restocks it.
  await admin.getByRole('button', { name: `Edit ${rare}` }).click();
  form = admin.getByRole('dialog', { name: 'Edit product' });
  await form.getByLabel('Stock').fill('3');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(admin.getByText(`${rare} saved.`)).toBeVisible();

  // The viewer finds the notification from the user menu.
  await viewer.goto('/');
  const item = viewer.getByRole('button', { name: 'Notifications', exact: true });
  await expect(async () => {
    if (!(await item.isVisible())) await viewer.locator('#kb-user-menu').click();
    await expect(item).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await item.click();
  const dialog = viewer.getByRole('dialog', { name: /^Notifications/ });
  const line = dialog.getByTestId('notification').filter({ hasText: `${rare} is back in stock in the store.` });
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('New');
  await screenshot(viewer, 'store-limits-notifications');
  await expectAccessible(viewer);
  await dialog.getByRole('button', { name: 'Mark all read' }).click();
  await expect(line).not.toContainText('New');
  await line.getByRole('link').click();
  await expect(viewer).toHaveURL(/\/store$/);
  await expect(dialog).toHaveCount(0);
});
