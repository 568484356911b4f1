/**
 * Admin → Settings (docs/go-live.md): the admin renames the site and changes its tagline; a new
 * visitor sees the new name in the header and the title at once, without a restart. The journey
 * runs on a site of its own, so the shared server's branding is never changed.
 */
import type { ChildProcess } from 'node:child_process';
import { expect, test } from './fixtures';
import { expectAccessible, newPerson, preAcceptAgeGate, screenshot, signIn } from './helpers';
import { running, startSite } from './own-site';

/** A site of its own (empty database) whose admin is `adminSteamId`. */
async function ownSite(adminSteamId: string): Promise<{ url: string; server: ChildProcess }> {
  const { url, server } = await startSite({ ADMIN_STEAM_IDS: adminSteamId, LOG_LEVEL: 'info' }, running);
  return { url, server };
}

test('the admin renames the site on Admin → Settings; a new visitor sees it in the header and title without a restart', async ({
  browser,
}) => {
  test.setTimeout(240_000); // a second server starts on a machine the suite's server already loads
  const adminPerson = newPerson('Owner');
  const site = await ownSite(adminPerson.steamId);
  try {
    const adminContext = await browser.newContext({ baseURL: site.url });
    await preAcceptAgeGate(adminContext);
    const admin = await adminContext.newPage();
    await admin.goto('/');
    await expect(admin).toHaveTitle('Kickback');
    await signIn(admin, adminPerson);
    await admin.getByRole('button', { name: 'Admin', exact: true }).click();
    await admin.getByRole('link', { name: 'Settings', exact: true }).click();
    await expect(admin.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect(admin.getByRole('link', { name: '18+ Gate' })).toBeVisible();

    // A javascript: link is named on its field and nothing is sent.
    const quickLink = admin.getByLabel('Quick link 1 URL');
    await quickLink.fill('javascript:alert(1)');
    await expect(admin.getByText(/quick link URL must be a site path/)).toBeVisible();
    await quickLink.fill('/leaderboard');

    await admin.getByLabel('Site name').fill('Nightshift Live');
    await admin.getByLabel('Tagline').fill('Slots and shows after dark.');
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Settings successfully updated.')).toBeVisible();
    // The admin's own page changes at once: header, footer, title.
    await expect(admin.locator('.kb-brand-name')).toHaveText('Nightshift Live');
    await expect(admin).toHaveTitle('Nightshift Live');
    await expect(admin.locator('footer')).toContainText('Slots and shows after dark.');
    await expectAccessible(admin);
    await screenshot(admin, 'admin-settings-saved');

    // A new visitor (another browser) gets the new branding from the same running server.
    // Wide enough that the header spells the name out beside the logo.
    const visitorContext = await browser.newContext({ baseURL: site.url, viewport: { width: 1440, height: 900 } });
    await preAcceptAgeGate(visitorContext);
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    await expect(visitor.locator('.kb-brand-name')).toHaveText('Nightshift Live');
    await expect(visitor.locator('.kb-header').getByText('Nightshift Live', { exact: true })).toBeVisible();
    await expect(visitor).toHaveTitle('Nightshift Live');
    await expect(visitor.locator('footer')).toContainText('Slots and shows after dark.');
    await screenshot(visitor, 'admin-settings-visitor');
  } finally {
    site.server.kill('SIGTERM');
  }
});
