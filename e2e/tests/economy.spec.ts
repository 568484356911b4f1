/**
 * The points economy in the browser: an admin grants points on Admin → Users and adds a product on
 * Admin → Products with an uploaded picture; a viewer buys it in the Store (toast, balance drops) and finds it in My
 * activity; the admin sees the order in Fulfilment with the buyer's linked accounts and marks it
 * delivered; the viewer sees the new status. Screenshots: e2e/screenshots/economy-*.png.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, newPerson, screenshot, signIn } from './helpers';
import { discPng } from './png';

async function personPage(
  browser: Browser,
  who: { name: string; steamId: string } | null,
  demo = false,
): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/');
  if (who) await signIn(page, who, { demo });
  return page;
}

async function adminPage(page: Page, name: string) {
  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
}

test('a viewer buys a product; the admin delivers it; the viewer sees it delivered', async ({ browser }) => {
  test.setTimeout(240_000);
  const buyer = newPerson('Buyer');
  const viewer = await personPage(browser, buyer);
  const admin = await personPage(browser, DEMO_ADMIN, true);

  // Signed out, the store shows the demo catalogue but Buy is disabled.
  const visitor = await personPage(browser, null);
  await visitor.getByRole('link', { name: 'Store', exact: true }).first().click();
  await expect(visitor.getByRole('heading', { name: 'Store', level: 1 })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Buy Kickback Hoodie' })).toBeDisabled();

  // Admin → Users: grant the buyer points (a reason is required).
  await adminPage(admin, 'Users');
  await admin.getByLabel('Search users').fill(buyer.name);
  const row = admin.locator(`tr[data-user="${buyer.name}"]`);
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Adjust balance of ${buyer.name}` }).click();
  await admin.getByLabel('Amount').fill('20000');
  await admin.getByRole('button', { name: 'Grant', exact: true }).click();
  await expect(admin.getByText('Enter a reason.')).toBeVisible();
  await admin.getByLabel('Reason').fill('Welcome bonus');
  await admin.getByRole('button', { name: 'Grant', exact: true }).click();
  await expect(admin.getByText(`Balance updated: ${buyer.name} +20,000.00 points, now 20,000.00.`)).toBeVisible();
  await expect(row.getByTestId('user-points')).toHaveText('20,000.00');
  await admin.getByLabel('Search users').fill('');
  await screenshot(admin, 'economy-admin-users');

  // Admin → Products: a bad price is refused naming the field; a good product is created.
  await adminPage(admin, 'Products');
  await admin.getByRole('button', { name: 'New product' }).click();
  await admin.getByLabel('Name').fill('Signed Vex Jersey');
  await admin.getByLabel('Price (points)').fill('-5');
  await admin.getByLabel('Category').fill('Merch');
  await admin.getByLabel('Stock').fill('3');
  // The picture is uploaded (docs/features/uploaded-images.md): its path fills Image URL.
  await admin.getByLabel('Upload an image').setInputFiles({
    name: 'jersey.png',
    mimeType: 'image/png',
    buffer: discPng(64, [230, 57, 70]),
  });
  await expect(admin.getByText('Image uploaded.')).toBeVisible();
  await expect(admin.getByLabel('Image URL')).toHaveValue(/^\/api\/images\/[0-9a-f]{64}\.png$/);
  const jerseyImage = await admin.getByLabel('Image URL').inputValue();
  await admin.getByRole('button', { name: 'Create', exact: true }).click();
  // Checked in the form by the shared rule, beside the field; nothing is sent.
  await expect(admin.getByText('must be greater than 0')).toBeVisible();
  await admin.getByLabel('Price (points)').fill('1500');
  await admin.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(admin.getByText('Signed Vex Jersey added to the store.')).toBeVisible();
  await expect(admin.getByTestId('products-table')).toContainText('Signed Vex Jersey');
  await screenshot(admin, 'economy-admin-products');

  // The viewer buys it in the Store.
  await viewer.reload();
  await viewer.getByRole('link', { name: 'Store', exact: true }).first().click();
  await expect(viewer.getByTestId('store-balance')).toHaveText('You have 20,000.00 points');
  await viewer.getByLabel('Category').selectOption('Merch');
  await viewer.getByLabel('Sort').selectOption('2');
  await expect(viewer.getByRole('button', { name: 'Buy Karambit | Fade' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Buy Signed Vex Jersey' })).toBeEnabled();
  const jerseyPicture = viewer.getByRole('article', { name: 'Signed Vex Jersey' }).locator('img').first();
  await expect(jerseyPicture).toHaveAttribute('src', jerseyImage);
  await jerseyPicture.scrollIntoViewIfNeeded(); // the store's pictures load lazily
  await expect.poll(() => jerseyPicture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
  await viewer.getByLabel('Category').selectOption('All');
  await expect(viewer.getByRole('button', { name: 'Buy Karambit | Fade' })).toBeDisabled(); // 85,000 > 20,000
  await screenshot(viewer, 'economy-store');
  await expectAccessible(viewer);
  await viewer.getByRole('button', { name: 'Buy Signed Vex Jersey' }).click();
  // Buying asks first: the item, its price and the balance after.
  const confirm = viewer.getByRole('dialog', { name: 'Confirm purchase' });
  await expect(confirm.getByTestId('balance-after')).toHaveText('18,500.00 pts');
  await confirm.getByRole('button', { name: 'Buy for 1,500.00 pts' }).click();
  await expect(
    viewer.getByText("You bought Signed Vex Jersey. We'll deliver it soon — track it in My activity."),
  ).toBeVisible();
  await expect(viewer.getByTestId('store-balance')).toHaveText('You have 18,500.00 points');
  await expect(viewer.getByRole('article', { name: 'Signed Vex Jersey' })).toContainText('2 left');

  // My activity shows the order (pending) and the ledger row in words.
  await viewer.locator('#kb-user-menu').click();
  await viewer.locator('.dropdown-menu').getByRole('link', { name: 'My activity' }).click();
  await expect(viewer.getByRole('heading', { name: 'My activity', level: 1 })).toBeVisible();
  const orders = viewer.getByTestId('my-orders');
  await expect(orders.getByRole('row', { name: /Signed Vex Jersey/ })).toContainText('Pending');
  const ledger = viewer.getByTestId('my-ledger');
  await expect(ledger.getByRole('row', { name: /Store purchase/ })).toContainText('−1,500.00 pts');
  await expect(ledger.getByRole('row', { name: /Granted by an admin/ })).toContainText('Welcome bonus');

  // The admin sees it in Fulfilment with where to deliver, and marks it delivered with a note.
  await adminPage(admin, 'Fulfilment');
  const item = admin.getByTestId('fulfilment-table').getByRole('row', { name: new RegExp(buyer.name) });
  await expect(item).toContainText('Signed Vex Jersey');
  await expect(item).toContainText('1,500.00 points');
  await expect(item).toContainText(buyer.steamId);
  await screenshot(admin, 'economy-fulfilment');
  await item.getByRole('button', { name: `Mark Signed Vex Jersey for ${buyer.name} delivered` }).click();
  await admin.getByLabel(/^Note/).fill('Shipped, tracking KB-123');
  await admin.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(admin.getByText('Marked as delivered.')).toBeVisible();
  await expect(admin.getByTestId('fulfilment-table').getByRole('row', { name: new RegExp(buyer.name) })).toHaveCount(0);
  await admin.getByLabel('Filter by status').selectOption('delivered');
  await expect(admin.getByTestId('fulfilment-table').getByRole('row', { name: new RegExp(buyer.name) })).toContainText(
    'Shipped, tracking KB-123',
  );

  // The viewer sees the status change.
  await viewer.reload();
  await expect(orders.getByRole('row', { name: /Signed Vex Jersey/ })).toContainText('Delivered');
  await expect(orders.getByRole('row', { name: /Signed Vex Jersey/ })).toContainText('Shipped, tracking KB-123');
  await screenshot(viewer, 'economy-my-activity');
  await expectAccessible(viewer);

  // On a phone My activity fits the screen: nothing scrolls sideways, the page nor any of its tables.
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await viewer.setViewportSize({ width, height });
    await screenshot(viewer, `economy-my-activity-${width}`);
    const pageFits = await viewer.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth);
    expect(pageFits, `page at ${width} px`).toBe(true);
    for (const table of ['My orders', 'My rewards and prizes', 'My predictions', 'My ledger']) {
      const fits = await viewer
        .getByRole('region', { name: table })
        .evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
      expect(fits, `${table} at ${width} px`).toBe(true);
    }
  }
});

test('the store on a phone', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/store');
  await expect(page.getByRole('heading', { name: 'Store', level: 1 })).toBeVisible();
  await expect(page.getByRole('article').first()).toBeVisible();
  await screenshot(page, 'economy-store-phone');
});
