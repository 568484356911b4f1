/** docs/features/sign-in-and-age-gate.md#sign-in sign-in edge cases and docs/features/sign-in-and-age-gate.md#the-18-gate 18+ gate, as a person meets them. */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, newPerson, preAcceptAgeGate, signIn } from './helpers';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 900 };
const EMPTY = { cookies: [], origins: [] };

async function shot(page: Page, name: string) {
  await keepScreenshot(page, { path: `/tmp/signin-shots/${name}.png`, fullPage: false });
}

async function fillDevProvider(page: Page, person: { name: string; steamId: string }) {
  await page.getByLabel('Display name').fill(person.name);
  await page.getByLabel('SteamID64').fill(person.steamId);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('a blocked popup is said, and "Sign in in this tab" signs in and returns to the page', async ({ browser }) => {
  const context = await browser.newContext({ viewport: LAPTOP });
  await context.addInitScript(() => {
    window.open = () => null; // as a popup blocker does
  });
  const page = await context.newPage();
  await page.goto('/Challenges');
  await shot(page, 'header-signed-out-1366');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const modal = page.getByRole('dialog', { name: 'Logging In' });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('alert')).toContainText('Allow pop-ups for this site to sign in');
  await page.waitForTimeout(2500); // the modal does not vanish by itself
  await expect(modal).toBeVisible();
  await shot(page, 'blocked-popup-1366');
  await expectAccessible(page);
  await page.setViewportSize(PHONE);
  await shot(page, 'blocked-popup-390');
  await page.setViewportSize(LAPTOP);

  const person = newPerson('Blocked');
  await modal.getByRole('button', { name: 'Sign in in this tab' }).click();
  await page.waitForURL(/\/dev\/openid\/login/);
  await fillDevProvider(page, person);
  await page.waitForURL((url) => url.pathname === '/Challenges');
  await expect(page.getByText('Signed in.')).toBeVisible();
  await expect(page.locator('#kb-user-menu')).toContainText(person.name);
  expect(new URL(page.url()).search).toBe(''); // the outcome parameter is gone again
  await context.close();
});

test('on a phone, Sign In is in the header bar and signs in in the same tab, back to the page, menu closed', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  let popups = 0;
  page.on('popup', () => (popups += 1));
  await page.goto('/leaderboard');
  const signInButton = page.getByRole('button', { name: 'Sign In', exact: true });
  await expect(signInButton).toBeVisible(); // without opening the menu
  await expect(page.locator('#kb-nav')).not.toHaveClass(/\bshow\b/); // the menu is closed
  await shot(page, 'header-signed-out-390');
  const box = await signInButton.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);

  const person = newPerson('Phone');
  await signInButton.click();
  await page.waitForURL(/\/dev\/openid\/login/);
  await shot(page, 'dev-provider-390');
  await fillDevProvider(page, person);
  await page.waitForURL((url) => url.pathname === '/leaderboard');
  await expect(page.getByText('Signed in.')).toBeVisible();
  expect(popups).toBe(0);
  await expect(signInButton).toBeHidden();
  const toggle = page.getByRole('button', { name: 'Toggle navigation' });
  await expect(page.locator('#kb-nav')).not.toHaveClass(/\bshow\b/);
  await toggle.click();
  await expect(page.locator('#kb-user-menu')).toContainText(person.name);
  await shot(page, 'menu-signed-in-390');
  await context.close();
});

test('closing the sign-in window is a failed sign-in: the contract’s toast, and why', async ({ page }) => {
  await page.goto('/');
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const popup = await popupPromise;
  await expect(popup.getByText(/Demo ids are/)).toBeVisible();
  await popup.close();
  const toast = page.getByRole('alert').filter({ hasText: 'Authentication failed.' });
  await expect(toast.getByText('Authentication failed.', { exact: true })).toBeVisible();
  await expect(
    toast.getByText('The sign-in window was closed before you finished. You are not signed in.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});

test('cancelling in the provider says so in plain words', async ({ page }) => {
  await page.goto('/');
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const popup = await popupPromise;
  await expect(popup.getByText(/Demo ids are 76561199999999000 to 76561199999999999/)).toBeVisible();
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Cancel' }).click();
  await closed;
  // The catalogue's failed sign-in toast, with a second line saying it was a cancel.
  const toast = page.getByRole('alert').filter({ hasText: 'Authentication failed.' });
  await expect(toast.getByText('Authentication failed.', { exact: true })).toBeVisible();
  await expect(toast.getByText('Sign-in cancelled. You are not signed in.')).toBeVisible();
  await shot(page, 'cancelled-toast');
  await expect(page.getByRole('dialog', { name: 'Logging In' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});

test('the 18+ gate: asked on a fresh browser, keyboard-only, remembered; overlays exempt; declining is polite', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: LAPTOP, storageState: EMPTY });
  const page = await context.newPage();
  await page.goto('/dailyrewardroobet');
  const gate = page.getByRole('dialog', { name: 'Are you 18 or older?' });
  await expect(gate).toBeVisible();
  await expect(gate).toContainText('18 or older');
  // Nothing of the site (Sign In, the calendar) is usable behind it.
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toHaveCount(0);
  await shot(page, 'age-gate-1366');
  await expectAccessible(page);
  // Escape does not dismiss it; Tab stays inside it.
  await page.keyboard.press('Escape');
  await expect(gate).toBeVisible();
  for (let i = 0; i < 5; i += 1) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
  }
  await page.setViewportSize(PHONE);
  await shot(page, 'age-gate-390');
  await page.setViewportSize(LAPTOP);
  await gate.getByRole('button', { name: 'Yes, I am 18 or older' }).focus();
  await page.keyboard.press('Enter');
  await expect(gate).toBeHidden();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await expect(gate).toHaveCount(0);

  // Signing in remembers it on the account: a new browser with only the session is not asked.
  const person = newPerson('Adult');
  await signIn(page, person);
  await expect
    .poll(async () =>
      (await page.request.get('/api/User/ping', { headers: { 'x-requested-with': 'kickback' } })).json(),
    )
    .toMatchObject({ ageConfirmed: true });
  const session = (await context.cookies()).filter((c) => c.name.endsWith('kb_session') || c.name === 'kb_signed_in');
  const other = await browser.newContext({ viewport: LAPTOP, storageState: { cookies: session, origins: [] } });
  const otherPage = await other.newPage();
  await otherPage.goto('/');
  await expect(otherPage.locator('#kb-user-menu')).toContainText(person.name);
  await expect(otherPage.getByRole('dialog', { name: 'Are you 18 or older?' })).toHaveCount(0);
  await other.close();
  await context.close();

  // OBS overlays are never gated.
  const obs = await browser.newContext({ viewport: { width: 1920, height: 1080 }, storageState: EMPTY });
  const overlay = await obs.newPage();
  await overlay.goto('/overlay/giveaway');
  await overlay.waitForLoadState('networkidle');
  await expect(overlay.getByRole('dialog', { name: 'Are you 18 or older?' })).toHaveCount(0);
  await overlay.goto('/kick/prediction/overlay');
  await overlay.waitForLoadState('networkidle');
  await expect(overlay.getByRole('dialog', { name: 'Are you 18 or older?' })).toHaveCount(0);
  await obs.close();

  // Declining shows a polite page, not the site.
  const young = await browser.newContext({ viewport: PHONE, storageState: EMPTY });
  const youngPage = await young.newPage();
  await youngPage.goto('/store');
  await youngPage.getByRole('button', { name: 'No, leave' }).click();
  await expect(youngPage.getByRole('heading', { name: /is not for you/ })).toBeVisible();
  await expect(youngPage.getByRole('heading', { name: 'Store' })).toHaveCount(0);
  await shot(youngPage, 'age-gate-declined-390');
  await young.close();
});

test('an admin turns the 18+ gate off and a fresh browser is not asked', async ({ browser }) => {
  const adminContext = await browser.newContext({ viewport: LAPTOP });
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN, { demo: true });
  await admin.goto('/admin/age-gate');
  await expect(admin.getByRole('heading', { name: '18+ Gate' })).toBeVisible();
  const textBox = admin.getByLabel('Text visitors confirm');
  await textBox.fill('');
  await expect(admin.getByText('Enter the text visitors confirm')).toBeVisible();
  await textBox.fill('Adults only, where partner sites are allowed.');
  await admin.getByLabel('Ask visitors to confirm they are 18 or older').uncheck();
  await admin.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('Settings successfully updated.')).toBeVisible();
  await shot(admin, 'admin-age-gate-1366');

  const fresh = await browser.newContext({ viewport: LAPTOP, storageState: EMPTY });
  const page = await fresh.newPage();
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Are you 18 or older?' })).toHaveCount(0);
  await fresh.close();

  // Back on, for the journeys after this one.
  await admin.getByLabel('Ask visitors to confirm they are 18 or older').check();
  await admin.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('Settings successfully updated.').first()).toBeVisible();
  const again = await browser.newContext({ viewport: LAPTOP, storageState: EMPTY });
  await preAcceptAgeGate(again); // the helper other journeys can use on their own contexts
  const againPage = await again.newPage();
  await againPage.goto('/');
  await expect(againPage.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await again.close();
  await adminContext.close();
});
