/**
 * docs/features/partner-links.md in the browser: a viewer claims a Roobet name (pending verification, points held),
 * the player wagers, an admin approves the claim in Admin → Verification, and the held points
 * appear in the viewer's My activity.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, newPerson, signIn } from './helpers';

const shot = (page: Page, name: string) =>
  keepScreenshot(page, { path: `/tmp/partner-verification-${name}.png`, fullPage: true });

async function openProfile(page: Page) {
  await page.locator('#kb-user-menu').click();
  await page.getByRole('button', { name: 'Profile', exact: true }).click();
  const profile = page.getByRole('dialog', { name: 'Profile Settings' });
  await expect(profile).toBeVisible();
  return profile;
}

test('claim, pending verification, admin approves in the queue, points appear in My activity', async ({
  page,
  browser,
}) => {
  // A Roobet player from the simulator's cast that the demo data did not link.
  const cast: Array<{ id: string; name: string }> = await (
    await page.request.get('/dev/partners/control/players/6')
  ).json();
  const player = cast[cast.length - 1]!;

  const viewer = newPerson('Claimer');
  await page.goto('/');
  await signIn(page, viewer);
  const profile = await openProfile(page);
  await profile.getByLabel('Roobet username').fill(player.name);
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings successfully updated.')).toBeVisible();
  const status = profile.getByTestId('partner-link-RoobetName');
  await expect(status).toContainText('Pending verification');
  await expect(status).toContainText('an admin checks this one');
  await shot(page, '01-profile-pending');

  // The player wagers $50 under the code; the admin refreshes the Roobet board.
  const bet = await page.request.post('/dev/partners/control/bet', {
    data: { site: 6, playerId: player.id, amount: 50 },
    headers: { 'X-Requested-With': 'kickback' },
  });
  expect(bet.ok()).toBe(true);
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await adminPage.goto('/');
  await signIn(adminPage, DEMO_ADMIN, { demo: true });
  await adminPage.getByRole('button', { name: 'Admin', exact: true }).click();
  await adminPage.getByRole('link', { name: 'Leaderboards' }).click();
  await adminPage.getByRole('tab', { name: 'Roobet' }).click();
  await adminPage.getByRole('article', { name: '6. Roobet' }).getByRole('button', { name: 'Refresh now' }).click();
  await expect(adminPage.getByText(/^Refreshed: \d+ players?\./)).toBeVisible();

  // My activity: the points are held, not in the ledger.
  await page.keyboard.press('Escape');
  await page.goto('/activity');
  const pending = page.getByTestId('pending-verification');
  await expect(pending).toContainText(player.name);
  // At least the $50 bet at 10 points per dollar (the player may have bet on their own meanwhile).
  const held = Number((await pending.locator('td').last().innerText()).replace(/[^\d.]/g, ''));
  expect(held).toBeGreaterThanOrEqual(500);
  await expect(page.getByTestId('my-ledger')).not.toContainText('Wagering on the code');
  await shot(page, '02-activity-pending');

  // The admin approves in the queue (Admin dropdown, beside Fulfilment).
  await adminPage.getByRole('button', { name: 'Admin', exact: true }).click();
  await adminPage.getByRole('link', { name: 'Verification' }).click();
  await expect(adminPage.getByRole('heading', { name: 'Verification', level: 1 })).toBeVisible();
  const row = adminPage.getByTestId('claims-table').locator('tr', { hasText: viewer.name });
  await expect(row).toContainText(player.name);
  await expect(row).toContainText(
    `${held.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} pts`,
  );
  await expect(row).toContainText('Roobet:');
  await shot(adminPage, '03-admin-queue');
  // axe once the "Refreshed" toast has gone (it fades over the page while it closes).
  await expect(adminPage.locator('.Toastify__toast')).toHaveCount(0, { timeout: 15_000 });
  await expectAccessible(adminPage);
  await row.getByRole('button', { name: 'Approve' }).click();
  const modal = adminPage.getByRole('dialog', { name: 'Approve claim' });
  await modal.getByLabel(/Reason/).fill('Matches their Kick name');
  await shot(adminPage, '04-admin-approve-modal');
  await modal.getByRole('button', { name: 'Approve claim' }).click();
  await expect(adminPage.getByText('Claim approved.')).toBeVisible();
  await expect(adminPage.getByTestId('claims-table')).not.toContainText(viewer.name);

  // The viewer's points arrive through the ledger.
  await page.reload();
  const ledger = page.getByTestId('my-ledger');
  await expect(ledger).toContainText('Wagering on the code');
  await expect(ledger).toContainText(
    `+${held.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} pts`,
  );
  await expect(page.getByTestId('pending-verification')).toHaveCount(0);
  await shot(page, '05-activity-credited');
  const after = await openProfile(page);
  await expect(after.getByTestId('partner-link-RoobetName')).toContainText('Verified');
  await shot(page, '06-profile-verified');
  await adminContext.close();
});

test('a refused id is contested from the profile (the form starts with it); the dismissal and its reason show there', async ({
  page,
  browser,
}) => {
  const clashName = `Clasher${Date.now().toString(36)}`;
  // The first account holds the Clash.gg name (a pending claim holds it already).
  const holderContext = await browser.newContext();
  const holderPage = await holderContext.newPage();
  await holderPage.goto('/');
  await signIn(holderPage, newPerson('Holder'));
  const holderProfile = await openProfile(holderPage);
  await holderProfile.getByLabel('Clash ID').fill(clashName);
  await holderProfile.getByRole('button', { name: 'Save' }).click();
  await expect(holderPage.getByText('Settings successfully updated.')).toBeVisible();
  await holderContext.close();

  // The second account is refused the same name, and contests it: the form carries the refused id.
  const claimant = newPerson('Contester');
  await page.goto('/');
  await signIn(page, claimant);
  const profile = await openProfile(page);
  await profile.getByLabel('Clash ID').fill(clashName);
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(
    profile.getByText('That id is held by another account. If it is yours, contest it below.'),
  ).toBeVisible();
  await profile.getByRole('button', { name: 'Contest it' }).click();
  const contest = profile.getByRole('form', { name: 'Contest a partner id' });
  await expect(contest.getByLabel('Site')).toHaveValue('ClashId');
  await expect(contest.getByLabel('Your id there')).toHaveValue(clashName);
  await shot(page, '07-contest-prefilled');
  await contest.getByLabel('How can we tell it is yours?').fill('It is my stream name too');
  await contest.getByRole('button', { name: 'Contest this id' }).click();
  await expect(
    page.getByText('Your dispute was sent to the admins. You will see their decision on your profile.'),
  ).toBeVisible();
  await expect(profile.getByTestId('partner-link-status')).toContainText(`Your claim on Clash ID ${clashName} is with`);

  // An admin dismisses it with a reason.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await adminPage.goto('/');
  await signIn(adminPage, DEMO_ADMIN, { demo: true });
  await adminPage.goto('/admin/verification');
  const row = adminPage.getByTestId('disputes-table').locator('tr', { hasText: claimant.name });
  await expect(row).toContainText(clashName);
  await row.getByRole('button', { name: 'Dismiss' }).click();
  const modal = adminPage.getByRole('dialog', { name: 'Dismiss dispute' });
  await expect(modal).toContainText('the user sees it on their profile');
  await modal.getByLabel(/Reason/).fill('The holder wagered under it for months');
  await modal.getByRole('button', { name: 'Dismiss dispute' }).click();
  await expect(adminPage.getByText('Dispute dismissed.')).toBeVisible();
  await adminContext.close();

  // The claimant sees the decision and its reason on the profile, as the toast promised.
  await page.reload();
  const after = await openProfile(page);
  const outcome = after.getByTestId('dispute-outcome');
  await expect(outcome).toHaveText(
    `Your claim on Clash ID ${clashName} was dismissed. Reason: The holder wagered under it for months`,
  );
  await expect(after.getByTestId('partner-link-status')).not.toContainText('is with the admins');
  await shot(page, '08-profile-dispute-dismissed');
});
