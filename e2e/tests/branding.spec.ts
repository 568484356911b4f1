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

    // An accent the dark button text would not read on is refused as typed, with its ratio.
    const accent = admin.getByLabel('Accent colour');
    await accent.fill('#0d6efd');
    await expect(
      admin.getByText(/The accent colour #0d6efd is too dark: .* 3\.67:1, and text needs 4\.5:1/),
    ).toBeVisible();
    await accent.fill('#00b3ff');

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

    // The new accent everywhere it shows, and no green left: links, the primary button, the
    // hero's glow; and axe finds nothing serious on the pages a visitor walks through.
    const cyan = 'rgb(0, 179, 255)';
    // Links are the accent as text: lifted a little so they read on a table or a dialog under the
    // accent's tint too (packages/common/src/accent.ts).
    const cyanText = 'rgb(10, 182, 255)';
    const look = () =>
      visitor.evaluate(() => {
        // A plain link in the page, as Bootstrap colours every link.
        const link = document.createElement('a');
        link.href = '#';
        link.textContent = 'a link';
        document.querySelector('main')!.append(link);
        const linkColour = getComputedStyle(link).color;
        link.remove();
        const hero = document.querySelector<HTMLElement>('.kb-hero');
        return {
          linkRgb: getComputedStyle(document.querySelector('main')!).getPropertyValue('--bs-link-color-rgb').trim(),
          link: linkColour,
          hero: hero ? getComputedStyle(hero).backgroundImage : '',
          body: getComputedStyle(document.body).backgroundImage,
        };
      });
    await expect(visitor.locator('.kb-hero')).toBeVisible(); // the home page's own chunk has drawn
    const home = await look();
    expect(home.link).toBe(cyanText);
    expect(home.hero).toContain('rgba(0, 179, 255');
    expect(home.body).toContain('rgba(0, 179, 255');
    expect(JSON.stringify(home)).not.toMatch(/83, 252, 24/);
    await expectAccessible(visitor);
    for (const path of ['/store', '/leaderboard', '/raffles', '/battles', '/terms']) {
      await visitor.goto(path);
      await expect(visitor.locator('main')).toBeVisible();
      await visitor.waitForLoadState('networkidle');
      const seen = await look();
      expect(seen.linkRgb, path).toBe('10, 182, 255');
      expect(seen.link, path).toBe(cyanText);
      await expectAccessible(visitor);
    }
    // A primary button (Save is disabled once saved): the accent behind the dark text.
    const primary = await visitor.evaluate(() => {
      const button = document.createElement('button');
      button.className = 'btn btn-primary';
      button.textContent = 'Go';
      document.querySelector('main')!.append(button);
      const colours = [getComputedStyle(button).backgroundColor, getComputedStyle(button).color];
      button.remove();
      return colours;
    });
    expect(primary).toEqual([cyan, 'rgb(11, 13, 16)']);
    await screenshot(visitor, 'admin-settings-accent');
  } finally {
    site.server.kill('SIGTERM');
  }
});
