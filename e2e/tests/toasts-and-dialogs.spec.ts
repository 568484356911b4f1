/**
 * Toasts never cover an open dialog's buttons: with the profile open, "Settings successfully
 * updated." shows clear of its Save and Close buttons at 1366×850 and on a phone, and a refused
 * product (a name that is taken) says so clear of the product dialog's buttons
 * (docs/features/accessibility-and-feedback.md).
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, keepScreenshot, newPerson, signIn } from './helpers';

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function openProfile(page: Page): Promise<Locator> {
  const item = page.getByRole('button', { name: 'Profile', exact: true });
  const menu = page.locator('#kb-user-menu');
  const toggle = page.getByRole('button', { name: 'Toggle navigation' });
  // On a phone the menu sits in the collapsing navbar; a tap while it slides open may be lost.
  await expect(async () => {
    if (!(await menu.isVisible()) && (await toggle.isVisible())) await toggle.click();
    await expect(menu).toBeVisible({ timeout: 2_000 });
    if (!(await item.isVisible())) await menu.click();
    await expect(item).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await item.click();
  const profile = page.getByRole('dialog', { name: 'Profile Settings' });
  await expect(profile).toBeVisible();
  return profile;
}

const sizes = [
  { name: 'laptop', viewport: { width: 1366, height: 850 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
];

for (const size of sizes) {
  test(`a toast from the profile dialog stays clear of its buttons (${size.name})`, async ({ browser }, testInfo) => {
    const context = await browser.newContext({
      viewport: size.viewport,
      isMobile: size.isMobile,
      hasTouch: size.isMobile,
    });
    const page = await context.newPage();
    const person = newPerson('Toasty');
    await page.goto('/');
    await signIn(page, person);
    // "Signed in." closes on a click, so only the dialog's own toast is measured.
    await page.locator('.Toastify__toast').filter({ hasText: 'Signed in.' }).click();
    await expect(page.locator('.Toastify__toast')).toHaveCount(0);
    const profile = await openProfile(page);
    const save = profile.getByRole('button', { name: 'Save' });
    await profile.getByLabel('Roobet username').fill(`rb${person.steamId.slice(-8)}`);
    await save.scrollIntoViewIfNeeded();
    await save.click();
    const toast = page.locator('.Toastify__toast').filter({ hasText: 'Settings successfully updated.' });
    await expect(toast).toBeVisible();
    // Measured once it has slid in.
    await page.waitForFunction(() => !document.querySelector('[class*="Toastify__bounce-enter"]'));
    const toastBox = (await toast.boundingBox())!;
    const buttons = [save, ...(await profile.locator('.modal-footer button').all())];
    expect(buttons.length).toBeGreaterThan(1);
    for (const button of buttons) {
      const box = await button.boundingBox();
      expect(box, await button.innerText()).not.toBeNull();
      expect(overlaps(toastBox, box!), `toast over "${await button.innerText()}"`).toBe(false);
    }
    // The footer's Close, scrolled into view on a phone, is clear too.
    const close = profile.locator('.modal-footer').getByRole('button', { name: 'Close' });
    await close.scrollIntoViewIfNeeded();
    expect(overlaps((await toast.boundingBox())!, (await close.boundingBox())!)).toBe(false);
    await keepScreenshot(page, { path: testInfo.outputPath(`toast-${size.name}.png`) });
    await keepScreenshot(page, { path: `/tmp/h5-toast-${size.name}.png` });
  });
}

test('a product name that is taken is refused with a clear toast, clear of the dialog buttons', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 850 } });
  const admin = await context.newPage();
  await admin.goto('/');
  await signIn(admin, DEMO_ADMIN, { demo: true });
  await admin.goto('/admin/products');
  const existing = admin.getByRole('row').filter({ hasText: 'Kickback Hoodie' });
  await expect(existing).toHaveCount(1);
  await admin.getByRole('button', { name: 'New product' }).click();
  const form = admin.getByRole('dialog', { name: 'New product' });
  await form.getByLabel('Name').fill(' kickback HOODIE ');
  await form.getByLabel('Price (points)').fill('100');
  await form.getByLabel('Category').fill('E2E');
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  const toast = admin
    .locator('.Toastify__toast')
    .filter({ hasText: 'A product named "Kickback Hoodie" already exists: choose another name.' });
  await expect(toast).toBeVisible();
  await expect(form).toBeVisible();
  await admin.waitForFunction(() => !document.querySelector('[class*="Toastify__bounce-enter"]'));
  const toastBox = (await toast.boundingBox())!;
  for (const button of await form.locator('.modal-footer button').all()) {
    expect(overlaps(toastBox, (await button.boundingBox())!), `toast over "${await button.innerText()}"`).toBe(false);
  }
  await keepScreenshot(admin, { path: '/tmp/h5-toast-product.png' });
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(existing).toHaveCount(1);
});
