import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, newPerson, screenshot, signIn, signOut } from './helpers';

test('a new visitor signs in through the popup, stays signed in across a reload, and signs out', async ({ page }) => {
  const person = newPerson();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('community');
  await screenshot(page, 'home-signed-out');

  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const popup = await popupPromise;
  const modal = page.getByRole('dialog', { name: 'Logging In' });
  await expect(modal).toBeVisible();
  await expect(modal).toContainText('Terms of Service');
  await expect(modal).toContainText('Privacy Policy');
  await screenshot(page, 'login-modal');

  await popup.waitForLoadState();
  await expect(popup.getByRole('heading', { name: 'Dev sign-in' })).toBeVisible();
  // The popup is 40% × 70% of the opener's window.
  const size = await popup.evaluate(() => ({ w: window.outerWidth, h: window.outerHeight }));
  const opener = await page.evaluate(() => ({ w: window.outerWidth, h: window.outerHeight }));
  expect(Math.abs(size.w - opener.w * 0.4)).toBeLessThan(40);
  expect(Math.abs(size.h - opener.h * 0.7)).toBeLessThan(60);
  await popup.getByLabel('Display name').fill(person.name);
  await popup.getByLabel('SteamID64').fill(person.steamId);
  await screenshot(popup, 'dev-provider');
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Sign in', exact: true }).click();
  await closed;

  await expect(page.getByText('Signed in.')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(page.locator('#kb-user-menu')).toContainText(person.name);
  await expect(page.getByRole('button', { name: 'You have 0.00 points' })).toBeVisible();
  await screenshot(page, 'header-signed-in');

  await page.reload();
  await expect(page.locator('#kb-user-menu')).toContainText(person.name);

  await signOut(page);
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});

test('cancelling the login modal closes the popup and leaves the visitor signed out', async ({ page }) => {
  await page.goto('/');
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const popup = await popupPromise;
  await page.getByRole('dialog', { name: 'Logging In' }).getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => popup.isClosed()).toBe(true);
  await expect(page.getByRole('dialog', { name: 'Logging In' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});

test('an admin sees the Admin dropdown; a User does not', async ({ page, browser }) => {
  await page.goto('/');
  await signIn(page, DEMO_ADMIN, { demo: true });
  await expect(page.getByRole('button', { name: 'Admin', exact: true })).toBeVisible();

  const other = await browser.newContext();
  const userPage = await other.newPage();
  await userPage.goto('/');
  await signIn(userPage, newPerson('Plain'));
  await expect(userPage.getByRole('button', { name: 'Admin', exact: true })).toHaveCount(0);
  await other.close();
});

test('CLICK TO LINK asks visitors to sign in first', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'CLICK TO LINK' }).click();
  await expect(page.getByText('Please sign in first.')).toBeVisible();
});

test('unknown pages show the not-found page; unknown API paths answer JSON 404', async ({ page, request }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'This page does not exist' })).toBeVisible();
  const res = await request.get('/api/Nope', { headers: { 'X-Requested-With': 'kickback' } });
  expect(res.status()).toBe(404);
  expect(await res.json()).toEqual({ message: 'Not found.' });
});

test('the pages of the shell have no serious accessibility violations', async ({ page }) => {
  for (const path of ['/', '/terms', '/privacy', '/no/such/page']) {
    await page.goto(path);
    await expect(page.locator('main h1')).toBeVisible();
    await expectAccessible(page);
  }
  await page.goto('/');
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const popup = await popupPromise;
  await expect(page.getByRole('dialog', { name: 'Logging In' })).toBeVisible();
  await expectAccessible(page);
  await popup.waitForLoadState();
  await expectAccessible(popup);
  await popup.close();
});

test('a User typing an admin URL lands on /; an admin opens it from the Admin dropdown', async ({ page, browser }) => {
  await page.goto('/');
  await signIn(page, newPerson('Curious'));
  await page.goto('/admin/audit');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('community');

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await adminPage.goto('/');
  await signIn(adminPage, DEMO_ADMIN, { demo: true });
  await adminPage.getByRole('button', { name: 'Admin', exact: true }).click();
  await adminPage.getByRole('link', { name: 'Audit Log' }).click();
  await expect(adminPage.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  await expectAccessible(adminPage);
  await adminContext.close();
});
