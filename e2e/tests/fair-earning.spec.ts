/**
 * Fair earning in the browser (docs/features/fair-earning.md), on a site of its own (it connects the
 * Kick bot, which the other journeys expect unconnected): the admin sets a daily cap on channel-point
 * conversions on Admin → Fair Earning; a linked viewer redeems a 250-point channel reward twice (the
 * Chat Simulator's signed redemption, through the real webhook): the first is credited, the second
 * is refused and listed with the reason. Then two accounts sign in from one browser, the Possible
 * alts list shows them sharing a device, and the admin excludes one from there.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { linkedChatter } from './chat-helpers';
import { expectAccessible, keepScreenshot, newPerson, preAcceptAgeGate, signIn, signOut } from './helpers';
import { running, startSite } from './own-site';

async function openAdminPage(page: Page, label: string) {
  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await page.getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('heading', { name: label, level: 1 })).toBeVisible();
}

test('the admin caps channel-point conversions per day: the one past the cap is refused with the reason; two accounts sharing a device are listed and one is excluded', async ({
  browser,
}) => {
  test.setTimeout(240_000); // a second server starts on a machine the suite's server already loads
  const owner = newPerson('Owner');
  const site = await startSite({ ADMIN_STEAM_IDS: owner.steamId, LOG_LEVEL: 'info' }, running);
  try {
    const adminContext = await browser.newContext({ baseURL: site.url, viewport: { width: 1440, height: 1000 } });
    await preAcceptAgeGate(adminContext);
    const admin = await adminContext.newPage();
    await admin.goto('/');
    await signIn(admin, owner);

    await openAdminPage(admin, 'Integrations');
    await admin.getByRole('region', { name: 'Kick bot' }).getByRole('button', { name: 'Connect Kick bot' }).click();
    await admin.getByRole('button', { name: 'Allow access' }).click();
    await expect(admin.getByText('Kick bot connected.')).toBeVisible();

    await openAdminPage(admin, 'Support Rewards');
    await admin.getByLabel('Reward title on Kick').fill('Hydrate');
    await admin.getByLabel('Cost in channel points').fill('500');
    await admin.getByLabel('Site points it pays').fill('250');
    await admin.getByRole('button', { name: 'Create on Kick' }).click();
    await expect(admin.getByText('Channel reward created on Kick.')).toBeVisible();

    // The daily cap: one 250-point conversion a day.
    await openAdminPage(admin, 'Fair Earning');
    const cap = admin.getByLabel('Channel points: most points a user converts per day (0 = no cap)');
    await cap.fill('-1');
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Channel points daily cap: cannot be negative.')).toBeVisible();
    await cap.fill('250');
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Fair earning settings saved.')).toBeVisible();

    const sim = await adminContext.newPage();
    await sim.goto('/admin/chat-simulator');
    const fan = await linkedChatter(browser, sim, admin, 'Miner', 0, { baseURL: site.url });
    const events = sim.getByRole('form', { name: 'Send a Kick event' });
    await events.getByLabel('Event').selectOption('redemption');
    await events.getByLabel('Viewer (Kick name)').fill(fan.kickName);
    await events.getByLabel('Reward').fill('Hydrate');
    for (let i = 0; i < 2; i++) {
      await events.getByRole('button', { name: 'Send event' }).click();
      await expect(sim.getByText('Sent channel.reward.redemption.updated.').first()).toBeVisible();
    }

    await admin.reload();
    const refused = admin.getByRole('table', { name: 'Refused conversions' });
    await expect(refused).toContainText(fan.kickName);
    await expect(refused).toContainText('Daily cap on channel points reached (250 points a day).');
    await expect(refused.getByRole('row')).toHaveCount(2); // the header and the one refusal

    // Two accounts signed in from one browser share its device.
    const shared = await browser.newContext({ baseURL: site.url });
    await preAcceptAgeGate(shared);
    const page = await shared.newPage();
    const main = newPerson('MainAcct');
    const alt = newPerson('AltAcct');
    await signIn(page, main);
    await signOut(page);
    await page.goto('/'); // a fresh page: the first sign-in's toast is gone
    await signIn(page, alt);
    await shared.close();

    await admin.reload();
    const group = admin.getByRole('group', { name: /^Device shared by 2 accounts/ }).filter({ hasText: alt.name });
    await expect(group).toContainText(main.name);
    await group.getByRole('button', { name: `Exclude ${alt.name}` }).click();
    await expect(admin.getByText('Account excluded: it earns nothing, never ranks and never wins.')).toBeVisible();
    await expect(group.getByRole('button', { name: `Include ${alt.name}` })).toBeVisible();
    await expect(group.getByRole('row').filter({ hasText: alt.name })).toContainText('Excluded');
    await expectAccessible(admin);
    await keepScreenshot(admin, { path: '/tmp/fair-earning-admin.png', fullPage: true });
  } finally {
    site.server.kill();
  }
});
