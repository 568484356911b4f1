/**
 * The menus (docs/features/site-and-admin-tools.md#the-menu), on a site of its own (the admin hides a
 * feature, which every other journey's menu would lose): a visitor on /store reaches /raffles from the
 * header's More menu; the phone menu and the footer list Live now, Raffles, Battles and Slot calls.
 * The admin moves Raffles up with the keyboard and hides Battles on Admin → Settings → Menu; then
 * Raffles sits in the header bar and Battles is gone from the header, the phone menu and the footer.
 * Screenshots: e2e/screenshots/menu-*.png.
 */
import { expect, test } from './fixtures';
import { expectAccessible, newPerson, preAcceptAgeGate, screenshot, signIn } from './helpers';
import { running, startSite } from './own-site';

const PHONE = { width: 390, height: 844 };

test('the menus list every feature; the admin reorders and hides one and every menu follows, on desktop and phone', async ({
  browser,
}) => {
  test.setTimeout(240_000); // a second server starts on a machine the suite's server already loads
  const owner = newPerson('Owner');
  const site = await startSite({ ADMIN_STEAM_IDS: owner.steamId, LOG_LEVEL: 'info' }, running);
  try {
    // A visitor on the store reaches the raffles from the header's More menu.
    const visitorContext = await browser.newContext({ baseURL: site.url, viewport: { width: 1280, height: 800 } });
    await preAcceptAgeGate(visitorContext);
    const visitor = await visitorContext.newPage();
    await visitor.goto('/store');
    const nav = visitor.locator('#kb-nav');
    // The contract's header items, as they were, in the bar.
    for (const label of ['Home', 'Leaderboard', 'Store', 'Daily Rewards', 'Challenges', 'Roobet VIP', 'Bonus Hunt']) {
      await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
    }
    await nav.getByRole('button', { name: 'More' }).click();
    await expect(nav.getByRole('link', { name: 'Live now', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Slot calls', exact: true })).toBeVisible();
    await expectAccessible(visitor);
    await screenshot(visitor, 'menu-desktop-more');
    await nav.getByRole('link', { name: 'Raffles', exact: true }).click();
    await expect(visitor).toHaveURL(/\/raffles$/);
    const explore = visitor.getByRole('navigation', { name: 'Explore' });
    for (const label of ['Live now', 'Raffles', 'Battles', 'Slot calls']) {
      await expect(explore.getByRole('link', { name: label, exact: true })).toBeVisible();
    }

    // The admin moves Raffles up twice with the keyboard and hides Battles.
    const adminContext = await browser.newContext({ baseURL: site.url, viewport: { width: 1440, height: 1000 } });
    await preAcceptAgeGate(adminContext);
    const admin = await adminContext.newPage();
    await admin.goto('/');
    await signIn(admin, owner);
    await admin.getByRole('button', { name: 'Admin', exact: true }).click();
    await admin.getByRole('link', { name: 'Settings', exact: true }).click();
    await admin.getByRole('tab', { name: 'Menu' }).click();
    const up = admin.getByRole('button', { name: 'Move Raffles up' });
    await up.focus();
    await admin.keyboard.press('Enter');
    await expect(up).toBeFocused();
    await admin.keyboard.press('Enter');
    await expect(admin.getByTestId('menu-raffles')).toContainText('In the header bar');
    await expect(admin.getByTestId('menu-hunt')).toContainText('Under More');
    const battles = admin.getByRole('switch', { name: 'Shown: Battles' });
    await battles.focus();
    await admin.keyboard.press('Space');
    await expect(battles).not.toBeChecked();
    await expectAccessible(admin);
    await admin.getByRole('button', { name: 'Save menu' }).click();
    await expect(admin.getByText('Settings successfully updated.')).toBeVisible();
    await screenshot(admin, 'menu-admin-saved');
    // The admin's own header follows at once.
    await expect(admin.locator('#kb-nav').getByRole('link', { name: 'Raffles', exact: true })).toBeVisible();

    // A visitor arriving now (a browser keeps the site's configuration up to a minute): Raffles in
    // the bar, Battles in no menu.
    await visitorContext.close();
    const laterContext = await browser.newContext({ baseURL: site.url, viewport: { width: 1280, height: 800 } });
    await preAcceptAgeGate(laterContext);
    const later = await laterContext.newPage();
    await later.goto('/store');
    const laterNav = later.locator('#kb-nav');
    await expect(laterNav.getByRole('link', { name: 'Raffles', exact: true })).toBeVisible();
    await laterNav.getByRole('button', { name: 'More' }).click();
    await expect(laterNav.getByRole('link', { name: 'Bonus Hunt', exact: true })).toBeVisible();
    await expect(laterNav.getByRole('link', { name: 'Battles', exact: true })).toHaveCount(0);
    const laterExplore = later.getByRole('navigation', { name: 'Explore' });
    await expect(laterExplore.getByRole('link', { name: 'Battles', exact: true })).toHaveCount(0);
    await expect(laterExplore.getByRole('link', { name: 'Raffles', exact: true })).toBeVisible();
    await laterContext.close();

    // The phone menu lists every shown feature, Battles not among them, and leads to its page.
    const phoneContext = await browser.newContext({ baseURL: site.url, viewport: PHONE });
    await preAcceptAgeGate(phoneContext);
    const phone = await phoneContext.newPage();
    await phone.goto('/store');
    await phone.getByRole('button', { name: 'Toggle navigation' }).click();
    const phoneNav = phone.locator('#kb-nav');
    for (const label of ['Home', 'Store', 'Bonus Hunt', 'Live now', 'Raffles', 'Slot calls', 'Earn points']) {
      await expect(phoneNav.getByRole('link', { name: label, exact: true })).toBeVisible();
    }
    await expect(phoneNav.getByRole('link', { name: 'Battles', exact: true })).toHaveCount(0);
    await expectAccessible(phone);
    await screenshot(phone, 'menu-phone-open');
    await phoneNav.getByRole('link', { name: 'Slot calls', exact: true }).click();
    await expect(phone).toHaveURL(/\/calls$/);
    await expect(phoneNav).not.toHaveClass(/\bshow\b/); // the menu closed
    await phoneContext.close();
    await adminContext.close();
  } finally {
    site.server.kill();
  }
});
