/**
 * Staff cannot pay themselves, in the browser: the demo Moderator runs a bonus hunt with a
 * 100,000,000-point guess prize and a linked chatter wins it; the prize is not paid but waits in
 * Fulfilment, where the Moderator sees it awaiting an Admin's approval and has no button for it. The
 * admin sees the limits on Admin → Staff Prize Limits (a page the Moderator cannot open), approves
 * the prize in Fulfilment, and it is paid. Screenshots: /tmp/staff-prize-*.png.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, DEMO_MODERATOR, expectAccessible, newPerson, signIn } from './helpers';

async function postInChat(sim: Page, kickName: string, text: string) {
  await sim.getByLabel('Kick username').fill(kickName);
  await sim.getByLabel('Message', { exact: true }).fill(text);
  await sim.getByRole('button', { name: 'Send to chat' }).click();
  const line = sim.getByRole('list', { name: 'Recent chat messages' }).getByRole('listitem').filter({ hasText: text });
  await expect(line.first()).toBeVisible();
  return line.first();
}

/** A viewer who links a Kick account with !verify through the simulator. */
async function chatter(browser: Browser, sim: Page, prefix: string) {
  const person = newPerson(prefix);
  const kickName = `kick_${person.steamId.slice(-6)}`;
  const page = await (await browser.newContext()).newPage();
  await signIn(page, person);
  await page.locator('#kb-user-menu').click();
  await page.getByRole('button', { name: 'Profile', exact: true }).click();
  const profile = page.getByRole('dialog', { name: 'Profile Settings' });
  await profile.getByRole('button', { name: 'Link Kick', exact: true }).click();
  const command = (await page.getByTestId('kick-verify-command').textContent()) ?? '';
  await expect(await postInChat(sim, kickName, command)).toContainText(`@${kickName} your Kick account is now linked`);
  return { name: person.name, kickName, page };
}

test('a Moderator’s oversized prize waits for an Admin’s approval in Fulfilment; the Admin sets the limits', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const modContext = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const mod = await modContext.newPage();
  await signIn(mod, DEMO_MODERATOR, { demo: true });
  const sim = await modContext.newPage();
  await sim.goto('/admin/chat-simulator');
  const fan = await chatter(browser, sim, 'Alt');

  // The Moderator runs a hunt with an enormous guess prize; the fan guesses and wins.
  await mod.goto('/admin/hunt');
  const huntName = `Mod hunt ${fan.kickName}`;
  await mod.getByLabel('Name').fill(huntName);
  await mod.getByLabel('Start cost ($)').fill('100');
  await mod.getByLabel('Guess prize (points)').fill('100000000');
  await mod.getByLabel('Guess prize (points)').press('Enter');
  await expect(mod.getByText('Hunt started: guessing is open.')).toBeVisible();
  await mod.getByLabel('Provider').fill('Hacksaw');
  await mod.getByLabel('Bet ($)').fill('1');
  await mod.getByLabel('Slot').fill('Le Bandit');
  await mod.getByLabel('Slot').press('Enter');
  await expect(mod.getByRole('table', { name: 'Bonuses' })).toContainText('Le Bandit');
  await expect(await postInChat(sim, fan.kickName, '!guess 40')).toContainText('guess taken: 40.00');
  await mod.getByLabel('Payout').fill('42');
  await mod.getByLabel('Payout').press('Enter');
  await mod.getByRole('button', { name: 'Finish hunt' }).click();
  await expect(mod.getByText('Hunt finished.')).toBeVisible();

  // Nothing was paid: the fan's balance is still 0.
  await fan.page.reload();
  await expect(fan.page.getByText('0.00 pts', { exact: true })).toBeVisible();

  // The Moderator sees the held prize but cannot approve it, nor open the limits page.
  await mod.goto('/admin/fulfilment');
  const modRow = mod.getByRole('row').filter({ hasText: huntName });
  await expect(modRow).toContainText('Prize awaiting approval');
  await expect(modRow).toContainText('above the per-event limit of 10,000 points');
  await expect(modRow.getByText('Awaiting an Admin’s approval')).toBeVisible();
  await expect(modRow.getByRole('button')).toHaveCount(0);
  await mod.screenshot({ path: '/tmp/staff-prize-moderator-fulfilment.png', fullPage: true });
  await mod.goto('/admin/staff-prize-limits');
  await expect(mod).toHaveURL(/\/$/);

  // The admin: the limits page from the Admin dropdown, then the approval.
  const adminContext = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN, { demo: true });
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'Staff Prize Limits' }).click();
  await expect(admin.getByRole('heading', { name: 'Staff Prize Limits' })).toBeVisible();
  await expect(admin.getByLabel('Most one event may pay (points)')).toHaveValue('10000');
  await expect(admin.getByLabel('Most all such events may pay in a day (points, UTC)')).toHaveValue('50000');
  await expectAccessible(admin);
  await admin.screenshot({ path: '/tmp/staff-prize-limits.png', fullPage: true });

  await admin.goto('/admin/fulfilment');
  const row = admin.getByRole('row').filter({ hasText: huntName });
  await expect(row).toContainText('100,000,000');
  await admin.screenshot({ path: '/tmp/staff-prize-admin-fulfilment.png', fullPage: true });
  await row.getByRole('button', { name: /^Approve and pay/ }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Approve and pay' }).click();
  await expect(admin.getByText('Approved; 100,000,000.00 points paid.')).toBeVisible();
  await expect(row).toHaveCount(0); // no longer pending

  await fan.page.goto('/activity');
  await expect(fan.page.getByText('100,000,000.00 pts', { exact: true })).toBeVisible();
  await expect(fan.page.getByText('Bonus hunt guess prize').first()).toBeVisible();
});
