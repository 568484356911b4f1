/**
 * The Moderator role in the browser: the demo Moderator signs in and the Admin dropdown lists only
 * what a Moderator may use (games, giveaway, Fulfilment, predictions, the bonus hunt, slot calls, the chat simulator, moderation); an admin
 * page opened by its address sends them home; Fulfilment offers Deliver but not Reject (a refund).
 * An admin then grants Moderator to a new viewer on the Users page, and the viewer's menu follows.
 */
import { expect, test } from './fixtures';
import { DEMO_ADMIN, DEMO_MODERATOR, expectAccessible, keepScreenshot, newPerson, signIn } from './helpers';

const moderatorMenu = [
  'Create Split Or Steal',
  'Create Deal Or No Deal',
  'Giveaway',
  'Fulfilment',
  'Predictions',
  'Run Bonus Hunt',
  'Slot calls',
  'Commands',
  'Chat Simulator',
  'Moderation',
];

test('a Moderator sees only the Admin pages they may use; an admin grants the role on the Users page', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const modContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const mod = await modContext.newPage();
  await mod.goto('/');
  await signIn(mod, DEMO_MODERATOR, { demo: true });
  await mod.getByRole('button', { name: 'Admin', exact: true }).click();
  const menu = mod.locator('[aria-labelledby="kb-admin-menu"]');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('link')).toHaveText(moderatorMenu);
  await keepScreenshot(mod, { path: '/tmp/moderator-menu.png' });

  // A page the role may not open, by its address: sent home.
  await mod.goto('/admin/users');
  await expect(mod).toHaveURL(/\/$/);

  // Fulfilment: the demo payouts are there to deliver; rejecting (a refund) is an admin's.
  await mod.goto('/admin/fulfilment');
  await expect(mod.getByRole('heading', { name: 'Fulfilment' })).toBeVisible();
  await expect(mod.getByRole('button', { name: 'Deliver' }).first()).toBeVisible();
  await expect(mod.getByRole('button', { name: 'Reject' })).toHaveCount(0);
  await expectAccessible(mod);
  await keepScreenshot(mod, { path: '/tmp/moderator-fulfilment.png', fullPage: true });

  // An admin grants Moderator to a viewer; the viewer's page follows (their sockets and session re-read).
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  const person = newPerson('Mod');
  await viewer.goto('/');
  await signIn(viewer, person);
  await expect(viewer.getByRole('button', { name: 'Admin', exact: true })).toHaveCount(0);

  const adminContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const admin = await adminContext.newPage();
  await admin.goto('/');
  await signIn(admin, DEMO_ADMIN, { demo: true });
  await admin.goto('/admin/users');
  await admin.getByLabel('Search users').fill(person.name);
  const role = admin.getByLabel(`Role of ${person.name}`);
  await expect(role).toHaveValue('User');
  await role.selectOption('Moderator');
  await expect(admin.getByText('Role changed to Moderator.')).toBeVisible();
  await keepScreenshot(admin, { path: '/tmp/moderator-users-page.png', fullPage: true });

  await viewer.reload();
  await viewer.getByRole('button', { name: 'Admin', exact: true }).click();
  await expect(viewer.locator('[aria-labelledby="kb-admin-menu"]').getByRole('link')).toHaveText(moderatorMenu);

  // The admin's own dropdown still has everything.
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  const adminMenu = admin.locator('[aria-labelledby="kb-admin-menu"]');
  for (const name of ['Users', 'Products', 'Daily Reward Policies', ...moderatorMenu]) {
    await expect(adminMenu.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await Promise.all([modContext.close(), viewerContext.close(), adminContext.close()]);
});
