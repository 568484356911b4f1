/**
 * Support rewards in the browser (docs/features/support-rewards.md), on a site of its own (it
 * connects the Kick bot, which the other journeys expect unconnected): the admin connects the bot,
 * sets the points per gifted sub on Admin → Support Rewards, a linked viewer gifts two subs (a
 * signed `channel.subscription.gifts` from the simulator, through the real webhook), and then the
 * gifter's balance has risen by the configured amount, My activity shows it, the alerts overlay
 * shows it, and one chat line announces it. Then the admin grants a follow Kick never delivered with
 * the "Grant a missed reward" form, and the table shows it paid. Screenshots: /tmp/support-rewards-*.png.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { linkedChatter } from './chat-helpers';
import { expectAccessible, keepScreenshot, newPerson, preAcceptAgeGate, signIn } from './helpers';
import { running, startSite } from './own-site';

async function openAdminPage(page: Page, label: string) {
  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await page.getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('heading', { name: label, level: 1 })).toBeVisible();
}

test('a linked viewer gifts subs: the gifter is paid the configured points, sees it in My activity, the overlay and chat announce it; a missed follow is granted by hand', async ({
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

    // The streamer's Kick account, so announcements go out to chat.
    await openAdminPage(admin, 'Integrations');
    await admin.getByRole('region', { name: 'Kick bot' }).getByRole('button', { name: 'Connect Kick bot' }).click();
    await admin.getByRole('button', { name: 'Allow access' }).click();
    await expect(admin.getByText('Kick bot connected.')).toBeVisible();

    // The admin sets the points per gifted sub.
    await openAdminPage(admin, 'Support Rewards');
    const perGift = admin.getByLabel('Points per gifted sub (to the gifter)');
    await expect(perGift).toHaveValue('500');
    await perGift.fill('-5');
    await expect(admin.getByText('Points per gifted sub: must be at least 0.')).toBeVisible();
    await perGift.fill('750');
    // Gifted subs are held 5 minutes by default (reversible before they pay); this run pays at once.
    const hold = admin.getByLabel('Hold gifted subs before paying (minutes, 0 = pay at once)');
    await expect(hold).toHaveValue('5');
    await hold.fill('0');
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(admin.getByText('Support rewards saved.')).toBeVisible();
    await expectAccessible(admin);

    // The alerts overlay, open in OBS before anything happens.
    const overlayContext = await browser.newContext({ baseURL: site.url, viewport: { width: 1920, height: 1080 } });
    const overlay = await overlayContext.newPage();
    await overlay.goto('/overlay/alerts?seconds=60');
    await expect(overlay.getByRole('main', { name: 'Support alerts overlay' })).toHaveAttribute(
      'data-connected',
      'true',
    );

    // A viewer links their Kick account with !verify in the Chat Simulator.
    const sim = await adminContext.newPage();
    await sim.goto('/admin/chat-simulator');
    const fan = await linkedChatter(browser, sim, admin, 'Gifter', 0, { keepPage: true, baseURL: site.url });

    // The Chat Simulator sends Kick's signed gifted-subs event from the fan: 2 subs.
    const events = sim.getByRole('form', { name: 'Send a Kick event' });
    await events.getByLabel('Event').selectOption('gift');
    await events.getByLabel('Gifter (Kick name)').fill(fan.kickName);
    await events.getByLabel('Giftees').fill('lucky_one, lucky_two');
    await events.getByRole('button', { name: 'Send event' }).click();
    await expect(sim.getByText('Sent channel.subscription.gifts.')).toBeVisible();

    // The overlay shows the alert.
    const alert = overlay.getByRole('status');
    await expect(alert).toContainText(fan.kickName);
    await expect(alert).toContainText('gifted 2 subs');
    await expect(alert).toContainText('+1,500 points');
    await keepScreenshot(overlay, { path: '/tmp/support-rewards-overlay.png' });

    // The gifter's balance rose by 2 × 750, and My activity says why.
    await fan.page.goto('/activity');
    await expect(fan.page.getByText('Supporting the stream').first()).toBeVisible();
    await expect(fan.page.getByText('1,500.00 pts', { exact: true }).first()).toBeVisible();
    await expectAccessible(fan.page);
    await keepScreenshot(fan.page, { path: '/tmp/support-rewards-activity.png', fullPage: true });

    // One chat line announces it, posted as the bot.
    const announced = async () => {
      const chat = (await (await admin.request.get('/dev/kick/chat/messages')).json()) as {
        messages: Array<{ content: string }>;
      };
      return chat.messages.filter((m) => m.content.includes(`@${fan.kickName} gifted 2 subs (+1,500 points)`)).length;
    };
    await expect.poll(announced).toBe(1);

    // The admin sees the reward paid, with a way to reverse it.
    await admin.reload();
    const row = admin.getByRole('row').filter({ hasText: fan.kickName });
    await expect(row).toContainText('paid');
    await expect(row.getByRole('button', { name: 'Reverse' })).toBeVisible();

    // Kick dropped the fan's follow: the admin grants it by hand with the form.
    const grant = admin.getByRole('form', { name: 'Grant a reward' });
    await grant.getByRole('button', { name: 'Grant' }).click();
    await expect(grant.getByText('User: enter a Kick name or a site user name.')).toBeVisible();
    await grant.getByLabel('Kick name or site user').fill(`@${fan.kickName}`);
    await grant.getByLabel('Kind').selectOption('follow');
    await grant.getByLabel('Reason').fill('Kick never sent the follow event');
    await grant.getByRole('button', { name: 'Grant' }).click();
    await expect(admin.getByText('Reward granted.')).toBeVisible();
    const granted = admin.getByRole('row').filter({ hasText: 'Kick never sent the follow event' });
    await expect(granted).toContainText('Follow × 1');
    await expect(granted).toContainText('paid');
    await expectAccessible(admin);
    await keepScreenshot(admin, { path: '/tmp/support-rewards-admin.png', fullPage: true });
  } finally {
    site.server.kill();
  }
});
