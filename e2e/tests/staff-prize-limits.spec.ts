/**
 * Staff cannot pay themselves, in the browser: the demo Moderator runs a bonus hunt with a
 * 100,000,000-point guess prize and a linked chatter wins it; the prize is not paid but waits in
 * Fulfilment, where the Moderator sees it awaiting an Admin's approval and has no button for it. The
 * admin sees the limits on Admin → Staff Prize Limits (a page the Moderator cannot open), approves
 * the prize in Fulfilment, and it is paid. Screenshots: /tmp/staff-prize-*.png.
 */
import { expect, test } from './fixtures';
import { linkedChatter, postInChat } from './chat-helpers';
import { DEMO_ADMIN, DEMO_MODERATOR, expectAccessible, keepScreenshot, signIn } from './helpers';

test('a Moderator’s oversized prize waits for an Admin’s approval in Fulfilment; the Admin sets the limits', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const modContext = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const mod = await modContext.newPage();
  await signIn(mod, DEMO_MODERATOR, { demo: true });
  const sim = await modContext.newPage();
  await sim.goto('/admin/chat-simulator');
  const fan = await linkedChatter(browser, sim, mod, 'Alt', 0, { keepPage: true });

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
  // The hunt page says the prize awaits approval, not that it was won, the amount on one line.
  await fan.page.setViewportSize({ width: 1366, height: 900 });
  await fan.page.goto('/hunt');
  const winnerLine = fan.page.getByLabel('Guess winner').filter({ hasText: fan.kickName });
  await expect(winnerLine.first()).toContainText('the prize of 100,000,000.00 points awaits an admin’s approval');
  await expect(winnerLine.first()).not.toContainText('won');
  await keepScreenshot(fan.page, { path: '/tmp/wtdemo-hunt-held.png', fullPage: true });

  // The Moderator sees the held prize but cannot approve it, nor open the limits page.
  await mod.goto('/admin/fulfilment');
  const modRow = mod.getByRole('row').filter({ hasText: huntName });
  await expect(modRow).toContainText('Prize awaiting approval');
  await expect(modRow).toContainText('above the per-event limit of 10,000.00 points');
  await expect(modRow.getByText('Awaiting an Admin’s approval')).toBeVisible();
  await expect(modRow.getByRole('button')).toHaveCount(0);
  await keepScreenshot(mod, { path: '/tmp/staff-prize-moderator-fulfilment.png', fullPage: true });
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
  await keepScreenshot(admin, { path: '/tmp/staff-prize-limits.png', fullPage: true });

  await admin.goto('/admin/fulfilment');
  const row = admin.getByRole('row').filter({ hasText: huntName });
  await expect(row).toContainText('100,000,000');
  await keepScreenshot(admin, { path: '/tmp/staff-prize-admin-fulfilment.png', fullPage: true });
  await row.getByRole('button', { name: /^Approve and pay/ }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Approve and pay' }).click();
  await expect(admin.getByText('Approved; 100,000,000.00 points paid.')).toBeVisible();
  await expect(row).toHaveCount(0); // no longer pending

  await fan.page.goto('/activity');
  await expect(fan.page.getByText('100,000,000.00 pts', { exact: true })).toBeVisible();
  await expect(fan.page.getByText('Bonus hunt guess prize').first()).toBeVisible();
});
