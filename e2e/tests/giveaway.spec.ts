/**
 * The chat giveaway in the browser: an admin sets a key, ten chatters type it through the Chat
 * Simulator (signed webhook deliveries into the real pipeline), the admin rolls, the spinner lands
 * on the winner the server drew, the OBS overlay in another context lands on the same winner, and
 * the public verify page recomputes the draw in the browser and says "match".
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectConfettiDrawn, watchConfetti } from './confetti';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, signIn } from './helpers';

// This journey checks the animations themselves (the confetti, the wheel, the spinner).
test.use({ reducedMotion: 'no-preference' });

const shot = (page: Page, name: string, transparent = false) =>
  keepScreenshot(page, { path: `/tmp/giveaway-${name}.png`, fullPage: true, omitBackground: transparent });

test('keys, ten chatters, a roll that lands on the server winner, the overlay and the verify page', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const overlayContext = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const overlay = await overlayContext.newPage();
  await overlay.goto('/overlay/giveaway');
  await expect(overlay.getByTestId('overlay-count')).toBeVisible();
  // Before a roll the overlay says one consistent thing, large and white on near-black.
  await expect(overlay.getByTestId('overlay-phase')).toHaveText('waiting for the roll');
  await expect(overlay.getByText('Waiting for participants')).toHaveCount(0);
  const pill = overlay.getByTestId('overlay-count').locator('..');
  expect(parseFloat(await pill.evaluate((e) => getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(48);
  expect(await pill.evaluate((e) => getComputedStyle(e).color)).toBe('rgb(255, 255, 255)');

  const adminContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const admin = await adminContext.newPage();
  const cspRefusals = await watchConfetti(admin);
  await admin.goto('/');
  await signIn(admin, DEMO_ADMIN, { demo: true });
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'Giveaway', exact: true }).click();
  await expect(admin.getByRole('heading', { name: 'Giveaway' })).toBeVisible();

  // A key of our own (runs share no database, but be explicit about what is active).
  const key = `!win${Date.now() % 100000}`;
  await admin.getByPlaceholder('Add new key..').fill(key);
  await admin.getByPlaceholder('Add new key..').press('Enter');
  await expect(admin.getByText(`Key ${key} added.`)).toBeVisible();
  await expect(admin.getByTestId('keys-select')).toContainText(key);
  await admin.getByRole('button', { name: 'Clear Participants' }).click();
  await expect(admin.getByText('Participants cleared.')).toBeVisible();
  await expect(admin.getByTestId('participant-count')).toHaveText('0 participants');

  // Ten chatters type the key in the Chat Simulator.
  const sim = await adminContext.newPage();
  await sim.goto('/admin/chat-simulator');
  await expect(sim.getByRole('heading', { name: 'Chat Simulator' })).toBeVisible();
  const chatters = Array.from({ length: 10 }, (_, i) => `gw_chatter_${i + 1}_${Date.now() % 1000}`);
  for (const [i, name] of chatters.entries()) {
    await sim.getByLabel('Kick username').fill(name);
    const sub = sim.getByLabel('Subscriber badge');
    if (i % 3 === 0) await sub.check();
    else await sub.uncheck();
    await sim.getByRole('textbox', { name: 'Message' }).fill(i === 4 ? `  ${key.toUpperCase()} ` : key);
    await sim.getByRole('button', { name: 'Send to chat' }).click();
    await expect(admin.getByTestId('participants')).toContainText(name);
  }
  await expect(admin.getByTestId('participant-count')).toHaveText('10 participants');
  await expect(overlay.getByTestId('overlay-count')).toHaveText('10 participants');
  await expect(overlay.getByTestId('overlay-phase')).toHaveText('waiting for the roll');
  await shot(admin, '01-admin-ten-participants');
  await shot(overlay, '01-overlay-before-roll', true);

  // The preferences modal opens from the cog.
  await admin.getByRole('button', { name: 'Giveaway Preferences' }).click();
  const prefs = admin.getByRole('dialog', { name: 'Giveaway Preferences' });
  await expect(prefs).toBeVisible();
  await shot(admin, '02-preferences');
  await prefs.getByRole('button', { name: 'Cancel' }).click();
  await expect(prefs).toBeHidden();
  // Saving them says so; "linked at least N days" is one of them and keeps what was saved.
  await admin.getByRole('button', { name: 'Giveaway Preferences' }).click();
  const linkedDays = prefs.getByLabel('Kick linked at least (days, 0 = off)');
  await expect(linkedDays).toHaveValue('0');
  await linkedDays.fill('3');
  await prefs.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('Giveaway preferences saved.')).toBeVisible();
  await expect(prefs).toBeHidden();
  await admin.getByRole('button', { name: 'Giveaway Preferences' }).click();
  await expect(linkedDays).toHaveValue('3');
  // Back to off (the chatters of this journey never linked).
  await linkedDays.fill('0');
  await prefs.getByRole('button', { name: 'Save' }).click();
  await expect(prefs).toBeHidden();

  // Roll: the spinner runs 3000 ms and lands on the server's winner.
  await admin.getByRole('button', { name: 'Roll', exact: true }).click();
  await expect(admin.getByRole('button', { name: 'Rolling…' })).toBeDisabled();
  await overlay.waitForTimeout(1200);
  await shot(overlay, '03-overlay-spinning', true);
  const popup = admin.getByRole('dialog', { name: 'Winner' });
  await expect(popup).toBeVisible({ timeout: 8000 });
  await expectConfettiDrawn(admin, cspRefusals);
  const verifyHref = await admin.getByRole('link', { name: 'Verify this draw' }).getAttribute('href');
  const rollId = verifyHref!.split('/').pop()!;
  const res = await admin.request.get(`/api/giveaway/rolls/${rollId}`, { headers: { 'x-requested-with': 'kickback' } });
  expect(res.status(), `${verifyHref} ${await res.text()}`).toBe(200);
  const record = (await res.json()) as {
    winnerNames: string[];
    snapshot: unknown[];
  };
  const winner = record.winnerNames[0]!;
  expect(chatters).toContain(winner);
  expect(record.snapshot).toHaveLength(10);
  await expect(popup.getByTestId('giveaway-winner')).toContainText(winner);
  await expect(popup.getByTestId('win-popup-list')).toHaveCSS('max-height', '300px');
  await shot(admin, '04-admin-win-popup');
  await popup.getByRole('button', { name: 'Close' }).click();

  // The landing card is the winner's and sits under the marker.
  const landing = admin.locator('[data-landing="true"]');
  await expect(landing).toContainText(winner);
  const marker = await admin.locator('.kb-spinner-marker').boundingBox();
  const card = await landing.boundingBox();
  expect(marker!.x).toBeGreaterThan(card!.x);
  expect(marker!.x).toBeLessThan(card!.x + card!.width);
  await expect(admin.getByTestId('recent-winners')).toContainText(winner);
  await expectAccessible(admin);
  await shot(admin, '05-admin-landed');

  // The overlay landed on the same winner.
  await expect(overlay.getByTestId('overlay-winner')).toContainText(winner);
  await expect(overlay.locator('[data-landing="true"]')).toContainText(winner);
  for (const el of ['html', 'body']) {
    expect(await overlay.locator(el).evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
  }
  expect(await overlay.locator('html').evaluate((e) => getComputedStyle(e).colorScheme)).toBe('light');
  await expect(overlay.getByRole('button')).toHaveCount(0);
  await shot(overlay, '06-overlay-landed', true);

  // The winner chats: the message streams to the admin's panel.
  await sim.getByLabel('Kick username').fill(winner);
  await sim.getByRole('textbox', { name: 'Message' }).fill('gg, thank you!');
  await sim.getByRole('button', { name: 'Send to chat' }).click();
  await expect(admin.getByTestId('winner-messages')).toContainText('gg, thank you!');

  // Anyone can verify: a visitor's browser recomputes the draw.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/giveaway/verify/${rollId}`);
  await expect(visitor.getByTestId('verify-result')).toContainText('match');
  await expect(visitor.getByTestId('verify-result')).not.toContainText('mismatch');
  await expect(visitor.getByTestId('verify-result')).toContainText(winner);
  await shot(visitor, '07-verify-match');
  await shot(admin, '08-admin-winner-message');

  // Cleared, then the page is opened again: the last roll is shown as the result, not replayed —
  // no spin, no popup, nothing added to Recent winners (its 3 s spin is run on a fake clock).
  await admin.getByRole('button', { name: 'Clear Recent Winners' }).click();
  await expect(admin.getByText('Recent winners cleared.')).toBeVisible();
  await expect(admin.getByTestId('recent-winners')).toHaveText('No winners yet.');
  await admin.clock.install();
  await admin.reload();
  const result = admin.locator('.kb-card').filter({ has: admin.getByRole('heading', { name: 'Winner', exact: true }) });
  await expect(result.getByTestId('giveaway-winner')).toContainText(winner);
  await expect(admin.getByRole('link', { name: 'Verify this draw' })).toBeVisible();
  await expect(admin.locator('[data-landing="true"]')).toHaveCount(0);
  await admin.clock.runFor(5000);
  await expect(admin.getByRole('dialog', { name: 'Winner' })).toHaveCount(0);
  await expect(admin.getByTestId('recent-winners')).toHaveText('No winners yet.');
  await expect(admin.locator('[data-landing="true"]')).toHaveCount(0);
  await expect(admin.getByRole('button', { name: 'Roll', exact: true })).toBeEnabled();
  await shot(admin, '09-admin-reopened');
});
