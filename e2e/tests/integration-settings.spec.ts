/**
 * Admin → Settings → Integrations and Go live's test message (docs/features/integration-settings.md):
 * the admin saves a Discord bot token, sees only "set · last 4", still after a reload; then on Go
 * live the test message says the bot is not connected, the admin connects it through Kick's
 * (simulated) consent page, and the test message is posted to the Kick chat. On a site of its own,
 * so the shared server's keys and bot are never changed.
 */
import { expect, test } from './fixtures';
import { expectAccessible, newPerson, preAcceptAgeGate, screenshot, signIn } from './helpers';
import { running, startSite } from './own-site';

test('the admin sets a key on Settings → Integrations, and Go live’s test message posts through the bot', async ({
  browser,
}) => {
  test.setTimeout(240_000); // a second server starts on a machine the suite's server already loads
  const owner = newPerson('Owner');
  const site = await startSite({ ADMIN_STEAM_IDS: owner.steamId, LOG_LEVEL: 'info' }, running);
  try {
    const context = await browser.newContext({ baseURL: site.url });
    await preAcceptAgeGate(context);
    const page = await context.newPage();
    await page.goto('/');
    await signIn(page, owner);

    const openSettings = async () => {
      await page.getByRole('button', { name: 'Admin', exact: true }).click();
      await page.getByRole('link', { name: 'Settings', exact: true }).click();
      await page.getByRole('tab', { name: 'Integrations' }).click();
      await expect(page.getByRole('heading', { name: 'Integrations', level: 2 })).toBeVisible();
    };
    await openSettings();
    const token = page.locator('[data-setting="DISCORD_BOT_TOKEN"]');
    await expect(token.locator('.kb-int-state')).toHaveText('Not set');
    await page.getByLabel('Discord bot token').fill('e2e-discord-bot-token-WXYZ1234');
    await page.getByRole('button', { name: 'Save integrations' }).click();
    await expect(page.getByText('Settings successfully updated.')).toBeVisible();
    await expect(token.locator('.kb-int-state')).toHaveText('set · …1234');
    await expect(page.getByLabel('Discord bot token', { exact: true })).toHaveValue('');
    await expectAccessible(page);
    await screenshot(page, 'integration-settings-saved');

    // After a reload: still set, never the token itself.
    await page.reload();
    await page.getByRole('tab', { name: 'Integrations' }).click();
    await expect(token.locator('.kb-int-state')).toHaveText('set · …1234');
    expect(await page.content()).not.toContain('e2e-discord-bot-token');

    // Go live: the test message before and after connecting the chat bot.
    const goLive = async () => {
      await page.getByRole('button', { name: 'Admin', exact: true }).click();
      await page.getByRole('link', { name: 'Go live' }).click();
      await expect(page.getByRole('heading', { name: 'Go live', level: 1 })).toBeVisible();
    };
    await goLive();
    const chatBot = page.locator('[data-golive="kick.bot"]');
    await chatBot.getByRole('button', { name: 'Send a test message' }).click();
    await expect(chatBot.getByRole('status')).toHaveText(/The chat bot is not connected/);
    await expect(page.locator('[data-golive="discord.bot"]')).toHaveAttribute('data-state', 'ready');

    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    await page.getByLabel('Admin').getByRole('link', { name: 'Integrations', exact: true }).click();
    await page.getByRole('region', { name: 'Kick bot' }).getByRole('button', { name: 'Connect Kick bot' }).click();
    await page.getByRole('button', { name: 'Allow access' }).click();
    await expect(page.getByText('Kick bot connected.')).toBeVisible();

    await goLive();
    await chatBot.getByRole('button', { name: 'Send a test message' }).click();
    await expect(chatBot.getByRole('status')).toHaveText(/Posted to the Kick chat\./);
    const chat = (await (await page.request.get('/dev/kick/chat/messages')).json()) as {
      messages: Array<{ content: string }>;
    };
    expect(chat.messages.map((m) => m.content)).toEqual([expect.stringContaining('the chat bot can post here')]);
    await expectAccessible(page);
    await screenshot(page, 'go-live-test-message');
  } finally {
    site.server.kill('SIGTERM');
  }
});
