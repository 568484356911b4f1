/**
 * Admin → Integrations → Bot messages (docs/features/kick-chat-queue.md): the admin sees the
 * outgoing chat queue's figures, connects a separate bot account through Kick's (simulated) OAuth,
 * switches bot messages to it, and a chat command's answer goes out as that account (`type:
 * "user"` into the streamer's channel); then switches back to the streamer's own account.
 * Screenshots: /tmp/h3-*.png.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, signIn } from './helpers';

interface KickChat {
  messages: Array<{ content: string; senderUsername: string; type: string }>;
}

const kickChat = async (page: Page) =>
  ((await (await page.request.get('/dev/kick/chat/messages')).json()) as KickChat).messages;

async function openPage(page: Page, label: string, heading: string) {
  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await page.getByRole('link', { name: label }).click();
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
}

async function allowOnKick(page: Page, username: string) {
  await expect(page.getByText('chat:write')).toBeVisible();
  await page.getByLabel('Kick username').fill(username);
  await page.getByRole('button', { name: 'Allow access' }).click();
  await expect(page).toHaveURL(/\/admin\/integrations\?kickBot=connected$/);
}

test('an admin sees the bot messages queue, posts through a separate bot account, and switches back', async ({
  page,
}) => {
  await page.goto('/');
  await signIn(page, DEMO_ADMIN, { demo: true });
  await openPage(page, 'Integrations', 'Integrations');
  // The streamer's account posts by default (connected here unless an earlier journey did).
  await expect(page.getByRole('region', { name: 'Kick bot' })).toBeVisible();
  const connectStreamer = page
    .getByRole('region', { name: 'Kick bot' })
    .getByRole('button', { name: 'Connect Kick bot' });
  if (await connectStreamer.isVisible()) {
    await connectStreamer.click();
    await allowOnKick(page, 'vex');
  }
  const card = page.getByRole('region', { name: 'Bot messages' });
  await expect(card).toContainText('at most one every 1.5 s (bursts of 3)');
  await expect(card.getByRole('radio', { name: /The streamer's own account/ })).toBeChecked();
  await expect(card.getByTestId('kick-bot-account')).toHaveText('not connected');
  await keepScreenshot(page, { path: '/tmp/h3-1-bot-messages.png', fullPage: true });

  await card.getByRole('button', { name: 'Connect bot account' }).click();
  await allowOnKick(page, 'vexbot');
  await expect(page.getByTestId('kick-bot-user')).toHaveText('vex'); // the streamer's token untouched
  const after = page.getByRole('region', { name: 'Bot messages' });
  await expect(after.getByTestId('kick-bot-account')).toHaveText('vexbot');
  await after.getByRole('radio', { name: /A separate bot account/ }).click();
  await expect(page.getByText('Bot messages now post with the bot account.')).toBeVisible();
  await expect(after.getByRole('radio', { name: /A separate bot account/ })).toBeChecked();

  // A chat command's answer goes out through the queue as the bot account.
  const before = (await kickChat(page)).length;
  await openPage(page, 'Chat Simulator', 'Chat Simulator');
  await page.getByLabel('Kick username', { exact: true }).fill('queue_fan');
  await page.getByLabel('Message', { exact: true }).fill('!verify');
  await page.getByRole('button', { name: 'Send to chat' }).click();
  // Its answer, among whatever else the bot posted meanwhile (another journey's timer on this server).
  const answer = async () =>
    (await kickChat(page)).slice(before).find((m) => m.content.includes('@queue_fan type !verify'));
  await expect.poll(async () => (await answer()) !== undefined).toBe(true);
  expect(await answer()).toMatchObject({
    type: 'user',
    senderUsername: 'vexbot',
    content: expect.stringContaining('@queue_fan type !verify'),
  });

  await openPage(page, 'Integrations', 'Integrations');
  const figures = page.getByRole('region', { name: 'Bot messages' });
  await expect(figures.getByTestId('kick-chat-waiting')).toHaveText('0');
  await expect(figures.getByTestId('kick-chat-sent')).not.toHaveText('0');
  await keepScreenshot(page, { path: '/tmp/h3-2-bot-account.png', fullPage: true });
  await expectAccessible(page);

  // Back to the streamer's account, as the other journeys expect.
  await figures.getByRole('radio', { name: /The streamer's own account/ }).click();
  await expect(page.getByText("Bot messages now post with the streamer's account.")).toBeVisible();
  await figures.getByRole('button', { name: 'Disconnect bot account' }).click();
  await expect(figures.getByTestId('kick-bot-account')).toHaveText('not connected');
});
