import type { Page } from '@playwright/test';
import { postInChat } from './chat-helpers';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, newPerson, screenshot as saveScreenshot, signIn } from './helpers';

/** A screenshot once fades and slides are over (spinners and toast timers keep running). */
async function screenshot(page: Page, name: string) {
  if (process.env.CI) return; // saveScreenshot skips it there: no wait either
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => {
      const timing = a.effect?.getTiming();
      const short = timing && timing.iterations !== Infinity && Number(timing.duration) <= 1000;
      return !short || a.playState !== 'running';
    }),
  );
  await saveScreenshot(page, name);
}

async function openProfile(page: Page) {
  const item = page.getByRole('button', { name: 'Profile', exact: true });
  // On a phone the menu sits in the collapsing navbar: a tap while it is still sliding open can
  // land before the menu is ready, and a person taps again — so does the test.
  await expect(async () => {
    if (!(await item.isVisible())) await page.locator('#kb-user-menu').click();
    await expect(item).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await item.click();
  const profile = page.getByRole('dialog', { name: 'Profile Settings' });
  await expect(profile).toBeVisible();
  return profile;
}

test('a viewer links Kick from chat and Discord through OAuth, unlinks both and saves partner ids', async ({
  browser,
}) => {
  test.setTimeout(240_000); // one long journey across two browsers
  const viewerContext = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await viewerContext.newPage();
  const person = newPerson('Linker');
  const kickName = `kick_${person.steamId.slice(-6)}`;
  const discordName = `dc_${person.steamId.slice(-6)}`;
  await page.goto('/');
  await signIn(page, person);

  // The profile, nothing linked yet.
  const profile = await openProfile(page);
  await expect(profile).toContainText(person.name);
  await expect(profile).toContainText('0 points');
  await expect(profile).toContainText('You havent linked your kick');
  await expect(profile).toContainText('You havent linked your discord');
  await expectAccessible(page);
  await screenshot(page, 'accounts-01-profile-unlinked');

  // Start Kick linking and copy the command.
  await profile.getByRole('button', { name: 'Link Kick', exact: true }).click();
  const connect = page.getByRole('dialog', { name: 'Connect Kick Account' });
  const commandBox = connect.getByTestId('kick-verify-command');
  await expect(commandBox).toHaveText(/^!verify [A-Z2-9]{6}$/);
  const command = (await commandBox.textContent()) ?? '';
  await connect.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Copied to clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
  await expect(connect).toContainText('The code expires in 4:');
  await expectAccessible(page);
  await screenshot(page, 'accounts-02-connect-kick');

  // An admin posts it in chat as the viewer's Kick account, through the Chat Simulator page.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/');
  await signIn(admin, DEMO_ADMIN, { demo: true });
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'Chat Simulator' }).click();
  await expect(admin.getByRole('heading', { name: 'Chat Simulator' })).toBeVisible();
  const pasted = await page.evaluate(() => navigator.clipboard.readText());
  const line = await postInChat(admin, kickName, pasted, { subscriber: true });
  await expect(line).toContainText(`@${kickName} your Kick account is now linked to ${person.name}`);
  await expect(line).toContainText('command verify');
  await expect(line).toContainText('Sub');
  await expectAccessible(admin);
  await screenshot(admin, 'accounts-03-chat-simulator');

  // The viewer's Connect Kick modal turns to linked by itself.
  await expect(connect).toContainText('Your Kick account is linked.');
  await expect(connect).toContainText(kickName);
  await screenshot(page, 'accounts-04-connect-kick-linked');
  await connect.getByRole('button', { name: 'Done' }).click();
  await expect(profile).toContainText(`Linked as ${kickName}`);
  await expect(profile.getByRole('button', { name: 'Link Kick', exact: true })).toBeDisabled();
  await expect(profile).not.toContainText('You havent linked your kick');

  // Discord through the OAuth simulator; the site comes back with the result and the profile.
  await profile.getByRole('button', { name: 'Link Discord', exact: true }).click();
  await expect(page).toHaveURL(/\/dev\/discord\/oauth2\/authorize\?/);
  await expect(page.getByRole('heading', { name: /Discord/ })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'accounts-05-discord-consent');
  await page.getByLabel('Discord username').fill(discordName);
  await page.getByRole('button', { name: 'Authorize', exact: true }).click();
  await expect(page.getByText('Your Discord account is linked.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const again = page.getByRole('dialog', { name: 'Profile Settings' });
  await expect(again).toContainText(`Linked as ${discordName}`);
  await expect(again).toContainText(`Linked as ${kickName}`);
  await expect(again.getByRole('button', { name: 'Link Discord', exact: true })).toBeDisabled();
  await screenshot(page, 'accounts-06-profile-both-linked');

  // Unlink both, each with its toast. The first is closed (a click) before the second unlink: a
  // toast lasts 5 s, so on a busy machine the first could close before the second opened, and two at
  // once was never seen.
  const unlinked = page.locator('.Toastify__toast').filter({ hasText: 'Connection successfully unlinked.' });
  await again.getByRole('button', { name: 'Unlink Kick' }).click();
  await expect(again).toContainText('You havent linked your kick');
  await expect(unlinked).toHaveCount(1);
  await unlinked.click();
  await expect(unlinked).toHaveCount(0);
  await again.getByRole('button', { name: 'Unlink Discord' }).click();
  await expect(again).toContainText('You havent linked your discord');
  await expect(unlinked).toHaveCount(1);
  await expect(again.getByRole('button', { name: 'Link Kick', exact: true })).toBeEnabled();
  await expect(again.getByRole('button', { name: 'Link Discord', exact: true })).toBeEnabled();

  // Partner ids and the leaderboard name switch.
  // A name of this person's own: a Roobet username links one account, and a retry signs in anew.
  const roobetName = `RoobetLinker${person.steamId.slice(-6)}`;
  await again.getByLabel('Roobet username').fill(`  ${roobetName} `);
  await again.getByLabel('Clash ID').fill(`clash-${person.steamId.slice(-6)}`);
  await again.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings successfully updated.')).toBeVisible();
  await expect(again.getByLabel('Roobet username')).toHaveValue(roobetName);
  await expect(again.getByRole('button', { name: 'Save' })).toBeDisabled();
  await again.getByLabel('Show my name on leaderboards').check();
  await expect(again).toContainText('Leaderboards show your wagering-site name in full.');
  await screenshot(page, 'accounts-07-profile-partner-ids');

  // They are stored: after a reload the profile shows them, and CLICK TO LINK knows the clash id.
  await page.reload();
  const reloaded = await openProfile(page);
  await expect(reloaded.getByLabel('Roobet username')).toHaveValue(roobetName);
  await expect(reloaded.getByLabel('Show my name on leaderboards')).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(reloaded).toBeHidden();
  await page.getByRole('link', { name: 'CLICK TO LINK' }).click();
  await expect(page.getByText('You have already linked a clash account.')).toBeVisible();

  await adminContext.close();
  await viewerContext.close();
});

test('bad partner ids are refused with a clear message and nothing changes', async ({ browser }) => {
  const firstContext = await browser.newContext();
  const first = await firstContext.newPage();
  await first.goto('/');
  await signIn(first, newPerson('Owner'));
  const taken = `Taken${Date.now() % 100000}`;
  const ownerProfile = await openProfile(first);
  await ownerProfile.getByLabel('Roobet username').fill(taken);
  await ownerProfile.getByRole('button', { name: 'Save' }).click();
  await expect(first.getByText('Settings successfully updated.')).toBeVisible();

  const page = await browser.newPage();
  await page.goto('/');
  await signIn(page, newPerson('Second'));
  const profile = await openProfile(page);
  // Each input stops at the server's limit, and each id is checked by its own rule as it is typed.
  await expect(profile.getByLabel('Cases ID')).toHaveAttribute('maxlength', '64');
  await profile.getByLabel('Clash ID').fill('-5');
  const clashRule = 'Enter your Clash.gg user number (a whole number from 1, like 4242) or your Clash.gg username.';
  await expect(profile.getByText(clashRule)).toBeVisible();
  await expect(profile.getByLabel('Clash ID')).toHaveAttribute('aria-invalid', 'true');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings successfully updated.')).toHaveCount(0);
  await profile.getByLabel('Clash ID').fill('');
  await profile.getByLabel('Roobet username').fill(taken.toUpperCase());
  await profile.getByRole('button', { name: 'Save' }).click();
  // The server's refusal: the toast, and the same words on the field.
  await expect(profile.locator('#kb-partner-RoobetName-error')).toHaveText(
    'That Roobet username is already linked to another account.',
  );
  await expect(profile.getByLabel('Roobet username')).toHaveAttribute('aria-invalid', 'true');
  await expect(profile.getByRole('button', { name: 'Save' })).toBeEnabled();
  await screenshot(page, 'accounts-08-partner-id-taken');
  await page.reload();
  const reloaded = await openProfile(page);
  await expect(reloaded.getByLabel('Roobet username')).toHaveValue('');
  await firstContext.close();
});

test('cancelling Discord consent comes back with a message and links nothing (on a phone)', async ({ page }) => {
  await page.goto('/store-does-not-matter');
  await signIn(page, newPerson('Decliner'));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  const profile = await openProfile(page);
  await screenshot(page, 'accounts-09-profile-phone');
  await profile.getByRole('button', { name: 'Link Discord', exact: true }).click();
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByText('Discord linking was cancelled.')).toBeVisible();
  await expect(page).toHaveURL(/\/store-does-not-matter$/);
  await expect(page.getByRole('dialog', { name: 'Profile Settings' })).toContainText('You havent linked your discord');
});
