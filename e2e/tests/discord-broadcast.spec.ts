/**
 * Send Discord Message in the browser: an admin sends a DM to picked users (one of whom has DMs
 * closed in the Discord simulator) and sees the result modal; a larger, slower send runs in the
 * background with a progress bar, then the modal. The simulator's inbox shows what arrived.
 * Screenshots: e2e/screenshots/discord-*.png.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, newPerson, screenshot, signIn } from './helpers';

async function openSender(page: Page, { viaMenu = true } = {}) {
  await page.goto('/');
  await signIn(page, DEMO_ADMIN, { demo: true });
  if (viaMenu) {
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    await page.getByRole('link', { name: 'Send Discord Message' }).click();
  } else {
    await page.goto('/DiscordMessageSender');
  }
  await expect(page).toHaveURL(/\/DiscordMessageSender$/);
  await expect(page.getByRole('heading', { name: 'Send Discord Message' })).toBeVisible();
}

async function pickUser(page: Page, typed: string, name: string) {
  await page.getByLabel('Users', { exact: true }).fill(typed);
  await page.getByRole('option', { name: new RegExp(name) }).click();
}

test('an admin sends a Discord message to picked users and sees who got it', async ({ page, context }) => {
  await openSender(page);
  await expect(page.getByPlaceholder('Enter message here')).toBeVisible();
  for (const label of ['All Discord Linked Users', 'Include Clash Active Users', 'Include Clash Non-Active Users']) {
    await expect(page.getByLabel(label)).not.toBeChecked();
  }
  await screenshot(page, 'discord-1-form');
  await expectAccessible(page);

  // Nothing to send: the form says so and sends nothing.
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByText('Enter a message.')).toBeVisible();
  await expect(page.getByText('Pick at least one user, or switch on an audience below.')).toBeVisible();

  await page.getByLabel('Message').fill('Stream starts in 10 minutes — tonight: 500 point giveaway!');
  await pickUser(page, 'Luck', 'LuckyLuke');
  await pickUser(page, 'Pri', 'Priya'); // her Discord (quietpriya) has DMs closed in the simulator
  await pickUser(page, 'Crate', 'CrateQueen');
  await screenshot(page, 'discord-2-filled');
  await page.getByRole('button', { name: 'Send', exact: true }).click();

  await expect(page.getByText('Message successfully sent.')).toBeVisible();
  const modal = page.getByRole('dialog', { name: 'Users Sent Message' });
  await expect(modal).toBeVisible();
  const succeeded = modal.getByRole('region', { name: /Succeded/ });
  const failed = modal.getByRole('region', { name: /Failed/ });
  await expect(succeeded).toContainText('LuckyLuke');
  await expect(succeeded).toContainText('CrateQueen');
  await expect(succeeded).not.toContainText('Priya');
  await expect(failed).toContainText('Priya');
  await expect(failed).toContainText('DMs closed');
  await expect(modal.getByText('1 could not be reached: 1 DMs closed or no shared server.')).toBeVisible();
  await screenshot(page, 'discord-3-result');
  await expectAccessible(page);
  await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(modal).toBeHidden();
  await expect(page.getByLabel('Message')).toHaveValue('');

  // The history keeps it; the result opens again from there.
  const recent = page.getByRole('region', { name: 'Recent broadcasts' });
  await expect(recent).toContainText('Stream starts in 10 minutes');
  await recent
    .getByRole('button', { name: /View result/ })
    .first()
    .click();
  await expect(modal).toContainText('LuckyLuke');
  await modal.getByRole('button', { name: 'Close', exact: true }).last().click();

  // What arrived, as the simulated Discord saw it.
  const inboxPromise = context.waitForEvent('page');
  await page.getByRole('link', { name: /simulated Discord inbox/ }).click();
  const inbox = await inboxPromise;
  await inbox.waitForLoadState();
  await expect(inbox.getByRole('heading', { name: /Discord inbox/ })).toBeVisible();
  await expect(inbox.getByText('@luckyluke')).toBeVisible();
  await expect(inbox.getByText('Stream starts in 10 minutes').first()).toBeVisible();
  await screenshot(inbox, 'discord-4-simulator-inbox');
  await inbox.close();
});

test('a slow send runs in the background with a progress bar, then shows the result', async ({ page }) => {
  test.setTimeout(240_000);
  await openSender(page);
  // The simulated Discord delivers three messages, then holds the rest until released: the send
  // outlasts the request and stays mid-way for as long as the test looks, however slow the machine.
  const held = await page.request.post('/dev/discord/bot/hold', { data: { after: 3 } });
  expect(held.ok()).toBe(true);
  try {
    await page.getByLabel('Message').fill('Weekly leaderboard closes Sunday 20:00 UTC. Good luck!');
    await page.getByLabel('All Discord Linked Users').check();
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    const progress = page.getByRole('progressbar', { name: 'Broadcast progress' });
    await expect(progress).toBeVisible();
    await expect(page.getByText(/of \d+/).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
    await expect(page.getByText(/^3 sent$/).first()).toBeVisible();
    await screenshot(page, 'discord-5-progress');

    // Leaving the page does not stop it; coming back shows it still going.
    await page.getByRole('link', { name: 'Home' }).first().click();
    await expect(page).toHaveURL(/\/$/);
    await page.goBack();
    await expect(progress).toBeVisible();
    await expect(page.getByText(/^3 sent$/).first()).toBeVisible();
    expect((await page.request.post('/dev/discord/bot/hold', { data: { release: true } })).ok()).toBe(true);

    await expect(page.getByText('Message successfully sent.')).toBeVisible({ timeout: 30_000 });
    const modal = page.getByRole('dialog', { name: 'Users Sent Message' });
    await expect(modal.getByRole('region', { name: /Succeded/ })).toContainText('LuckyLuke');
    await expect(modal.getByRole('region', { name: /Failed/ })).toContainText('Priya');
    await screenshot(page, 'discord-6-background-result');
  } finally {
    await page.request.post('/dev/discord/bot/hold', { data: { release: true } });
  }
});

test('the sender on a phone', async ({ page }) => {
  await openSender(page, { viaMenu: false });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel('Message').fill('Hello from the phone layout');
  await screenshot(page, 'discord-7-phone');
  await expectAccessible(page);
});

test('Admin → Integrations reports the Discord link and the DM broadcast', async ({ page, browser }) => {
  test.setTimeout(240_000);
  // A viewer links Discord through the OAuth simulator.
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  const person = newPerson('DcLinker');
  const discordName = `dcint_${person.steamId.slice(-6)}`;
  await viewer.goto('/');
  await signIn(viewer, person);
  await viewer.locator('#kb-user-menu').click();
  await viewer.getByRole('button', { name: 'Profile', exact: true }).click();
  const profile = viewer.getByRole('dialog', { name: 'Profile Settings' });
  await profile.getByRole('button', { name: 'Link Discord', exact: true }).click();
  await viewer.getByLabel('Discord username').fill(discordName);
  await viewer.getByRole('button', { name: 'Authorize', exact: true }).click();
  await expect(viewer.getByText('Your Discord account is linked.')).toBeVisible();
  await viewerContext.close();

  // The admin sends a DM: one delivered, one refused by Discord (Priya's DMs are closed: 50007).
  await openSender(page);
  await page.getByLabel('Message').fill('Integrations check');
  await pickUser(page, 'Luck', 'LuckyLuke');
  await pickUser(page, 'Pri', 'Priya');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByText('Message successfully sent.')).toBeVisible();
  await page.getByRole('dialog', { name: 'Users Sent Message' }).getByRole('button', { name: 'Close' }).last().click();

  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await page.getByRole('link', { name: 'Integrations' }).click();
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible();
  const oauth = page.locator('tr[data-integration="discord.oauth"]');
  await expect(oauth).toContainText('Working');
  await expect(oauth).toContainText(`authorized ${discordName}`);
  await expect(oauth).not.toContainText('Not used yet');
  const bot = page.locator('tr[data-integration="discord.bot"]');
  await expect(bot).toContainText('Working');
  await expect(bot).toContainText('last broadcast (completed): 1 sent, 1 failed');
  await expect(bot).toContainText('50007: Cannot send messages to this user');
  await expect(bot).not.toContainText('Not used yet');
  await oauth.scrollIntoViewIfNeeded();
  await screenshot(page, 'discord-8-integrations');
});
