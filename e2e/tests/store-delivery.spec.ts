/**
 * docs/features/points-and-store.md in the browser: buying asks first (item, price, balance after) and asks a
 * skin's Steam trade URL, which the admin then sees in Fulfilment; an admin uploads a pool of codes
 * (never shown back), a viewer buys one and sees it at once and in My activity; the store shows two
 * cards per row on a phone with long names wrapped; the rewards calendar opens at today.
 * Screenshots at 1366 px and 390 px: e2e/screenshots/store-delivery-*.png.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, keepScreenshot, newPerson, screenshot, signIn } from './helpers';

const TRADE_URL = 'https://steamcommunity.com/tradeoffer/new/?partner=246813579&token=Kb7x-Q2z';
const CODES = ['E2E-KEY-AAAA-1111', 'E2E-KEY-BBBB-2222'];
const headers = { 'x-requested-with': 'kickback' };

async function personPage(browser: Browser, who: { name: string; steamId: string }, demo = false, width = 1366) {
  const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
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
    data: { currency: 'points', amount: points, reason: 'e2e store' },
  });
  expect(res.status()).toBe(200);
}

async function newProduct(admin: Page, p: { name: string; price: string; delivery: string; stock?: string }) {
  await admin.getByRole('button', { name: 'New product' }).click();
  const form = admin.getByRole('dialog', { name: 'New product' });
  await form.getByLabel('Name').fill(p.name);
  await form.getByLabel('Price (points)').fill(p.price);
  await form.getByLabel('Category').fill('E2E');
  await form.getByLabel('Delivery').selectOption(p.delivery);
  if (p.stock) await form.getByLabel('Stock').fill(p.stock);
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(admin.getByText(`${p.name} added to the store.`)).toBeVisible();
}

test('purchase confirmation with a trade URL through to Fulfilment; an instant code in My activity', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await personPage(browser, DEMO_ADMIN, true);
  const buyer = newPerson('Shopper');
  const viewer = await personPage(browser, buyer);
  await grant(admin, buyer.name, 5000);

  // Admin → Products: a skin delivered to a trade URL and a code product with a pool.
  await admin.goto('/admin/products');
  await newProduct(admin, { name: 'E2E Redline', price: '1200.50', delivery: 'steam_trade_url', stock: '5' });
  await newProduct(admin, { name: 'E2E Game Key', price: '300', delivery: 'code' });
  await admin.getByRole('button', { name: 'Codes of E2E Game Key' }).click();
  const codes = admin.getByRole('dialog', { name: 'Codes: E2E Game Key' });
  await codes.getByLabel('Add codes, one per line').fill(`${CODES[0]}\n${CODES[1]}\n${CODES[0]}`);
  await expect(codes.getByText(`Repeated in this upload: ${CODES[0]}`)).toBeVisible();
  await codes.getByLabel('Add codes, one per line').fill(CODES.join('\n'));
  await codes.getByRole('button', { name: 'Upload 2 codes' }).click();
  await expect(admin.getByText('Added 2 codes; 2 available.')).toBeVisible();
  await expect(codes.getByTestId('code-counts')).toContainText('2 available');
  await expect(codes.getByTestId('code-list')).toContainText('••••1111');
  await codes.getByLabel('Add codes, one per line').fill(CODES[1]!);
  await codes.getByRole('button', { name: 'Upload 1 code' }).click();
  await expect(
    codes.getByText(`Nothing was added. Refused: ${CODES[1]} (already in this product's pool)`),
  ).toBeVisible();
  await screenshot(admin, 'store-delivery-admin-codes');
  await codes.getByRole('button', { name: 'Close', exact: true }).last().click();

  // A second code product refuses a code another product's pool already holds, naming it.
  await newProduct(admin, { name: 'E2E Other Key', price: '300', delivery: 'code' });
  await admin.getByRole('button', { name: 'Codes of E2E Other Key' }).click();
  const other = admin.getByRole('dialog', { name: 'Codes: E2E Other Key' });
  await other.getByLabel('Add codes, one per line').fill(`${CODES[0]}\nE2E-KEY-CCCC-3333`);
  await other.getByRole('button', { name: 'Upload 2 codes' }).click();
  const refusal = `Added 1 code; 1 available. Refused: ${CODES[0]} (already in another product's pool)`;
  await expect(other.getByTestId('code-refusals')).toHaveText(refusal);
  await expect(admin.getByRole('alert').filter({ hasText: refusal })).toBeVisible();
  await expect(other.getByTestId('code-counts')).toContainText('1 available');
  await screenshot(admin, 'store-delivery-admin-codes-refused');
  await other.getByRole('button', { name: 'Close', exact: true }).last().click();
  await admin.reload();
  for (const c of CODES) expect(await admin.content()).not.toContain(c);

  // The buyer: Buy asks first, with the balance after and the trade URL checked as typed.
  await viewer.goto('/store');
  await viewer.getByRole('button', { name: 'Buy E2E Redline' }).click();
  const dialog = viewer.getByRole('dialog', { name: 'Confirm purchase' });
  await expect(dialog).toContainText('E2E Redline');
  await expect(dialog.getByTestId('balance-after')).toHaveText('3,799.50 pts');
  const url = dialog.getByLabel('Your Steam trade URL');
  await url.fill('https://steamcommunity.com/profiles/76561198000000000');
  await expect(dialog.getByText(/^Enter your Steam trade URL/)).toBeVisible();
  await screenshot(viewer, 'store-delivery-dialog-1366');
  await viewer.setViewportSize({ width: 390, height: 844 });
  await screenshot(viewer, 'store-delivery-dialog-390');
  await viewer.setViewportSize({ width: 1366, height: 900 });
  await url.fill(TRADE_URL);
  await expect(dialog.getByText(/^Enter your Steam trade URL/)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Buy for 1,200.50 pts' }).click();
  await expect(
    viewer.getByText("You bought E2E Redline. We'll deliver it soon — track it in My activity."),
  ).toBeVisible();
  await expect(viewer.getByTestId('store-balance')).toHaveText('You have 3,799.50 points');
  await expect(viewer.locator('#kb-nav').getByRole('link', { name: /how to earn points/ })).toContainText(
    '3,799.50 pts',
  );

  // Fulfilment: the admin sees where to deliver.
  await admin.goto('/admin/fulfilment');
  const row = admin.getByTestId('fulfilment-table').getByRole('row', { name: new RegExp(buyer.name) });
  await expect(row.getByTestId('order-delivery')).toContainText(TRADE_URL);
  await expect(row.getByRole('link', { name: TRADE_URL })).toHaveAttribute('href', TRADE_URL);
  await screenshot(admin, 'store-delivery-fulfilment');

  // A code: shown at once in the success dialog, and in My activity.
  await viewer.getByRole('button', { name: 'Buy E2E Game Key' }).click();
  await viewer
    .getByRole('dialog', { name: 'Confirm purchase' })
    .getByRole('button', { name: 'Buy for 300.00 pts' })
    .click();
  const got = viewer.getByRole('dialog', { name: 'Your code for E2E Game Key' });
  await expect(got.getByTestId('purchased-code')).toContainText(CODES[0]!);
  await screenshot(viewer, 'store-delivery-code');
  await got.getByRole('button', { name: 'Done' }).click();
  await viewer.goto('/activity');
  const order = viewer.getByTestId('my-orders').getByRole('row', { name: /E2E Game Key/ });
  await expect(order.getByTestId('order-code')).toContainText(CODES[0]!);
  await expect(order).toContainText('Delivered');
  await expect(viewer.getByTestId('my-orders').getByRole('row', { name: /E2E Redline/ })).toContainText(TRADE_URL);

  // The admin's Fulfilment says it was delivered automatically, without the code.
  await admin.getByLabel('Filter by status').selectOption('delivered');
  const auto = admin.getByTestId('fulfilment-table').getByRole('row', { name: /E2E Game Key/ });
  await expect(auto).toContainText('delivered automatically at purchase');
  for (const c of CODES) expect(await admin.content()).not.toContain(c);
});

test('the store on a phone: two cards per row, long names wrap; the calendar opens at today', async ({ browser }) => {
  const admin = await personPage(browser, DEMO_ADMIN, true);
  const res = await admin.request.post('/api/admin/products', {
    headers,
    // Unique per attempt (product names are unique; a retry runs on the same server).
    data: {
      name: `${'Supercalifragilisticexpialidocious'.repeat(2)}Knife${Date.now() % 1000}`,
      price: 10,
      category: 'E2E',
    },
  });
  expect(res.status()).toBe(200);

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/store');
  const cards = page.getByRole('article');
  await expect(cards.first()).toBeVisible();
  const [a, b] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()];
  expect(a && b && Math.abs(a.y - b.y) < 1 && b.x > a.x + a.width - 1).toBe(true);
  expect(a!.width).toBeLessThan(195);
  // No card is wider than its column, and no name is cut sideways: the long name wraps inside it.
  const overflow = await page.$$eval('.kb-product, .kb-product-name', (els) =>
    els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
  );
  expect(overflow).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await keepScreenshot(page, { path: 'screenshots/store-delivery-store-390.png' });
  await page.setViewportSize({ width: 1366, height: 900 });
  await keepScreenshot(page, { path: 'screenshots/store-delivery-store-1366.png' });

  // The calendar opens with today on screen, at 390 px and at 1366 px.
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto('/dailyrewardroobet');
    const today = page.locator(`button.kb-day[data-day="${new Date().getUTCDate()}"]`);
    await expect(today).toBeInViewport();
    if (width === 390) {
      // A scroll restoration that comes after the first check (no visitor's input) does not keep
      // today off screen.
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect(today).toBeInViewport();
    }
    await keepScreenshot(page, { path: `screenshots/store-delivery-calendar-${width}.png` });
  }
});
