/**
 * Discord roles in the browser (docs/features/discord-roles.md): the admin picks the streamer's
 * server and the subscriber role on Admin → Integrations (the check says the bot may give it), a
 * viewer links Kick (from chat) and Discord (through the OAuth simulator), the Chat Simulator sends
 * Kick's signed `channel.subscription.gifts` from that viewer with subs that end in 20 seconds
 * (`expiresInSeconds`, the gift's `expires_at`), and the simulated Discord server shows the
 * gifter's account with the subscriber role, then without it once the gifted subs lapsed — not
 * before their end. Screenshots: discord-roles-*.png.
 */
import { createHash } from 'node:crypto';
import { expect, test } from './fixtures';
import { linkedChatter } from './chat-helpers';
import { DEMO_ADMIN, expectAccessible, screenshot, signIn } from './helpers';

const json = { 'x-requested-with': 'kickback' };
const SIM_GUILD_ID = '1200000000000000001';
const SUBSCRIBER_ROLE = '1200000000000000012';
/**
 * How long the gifted subs run: the role must be seen given before they end, so this leaves the
 * gift's sweep (well under a second alone) room on a loaded 2-core machine.
 */
const GIFT_SECONDS = 20;

/** The Discord simulator's id for a username (its directory derives it the same way). */
function simulatedDiscordId(username: string): string {
  const n = createHash('sha256').update(username.toLowerCase()).digest().readBigUInt64BE(0);
  return String(100_000_000_000_000_000n + (n % 800_000_000_000_000_000n));
}

test("a gifted sub gives the gifter's Discord account the subscriber role, taken when the sub lapses", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000); // two browsers, and the gifted subs run 20 s before the role is taken
  await page.goto('/');
  await signIn(page, DEMO_ADMIN, { demo: true });
  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await page.getByRole('link', { name: 'Integrations', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible();
  const card = page.getByRole('region', { name: /Discord server: roles and go-live posts/ });
  await card.getByLabel('Server id').fill(SIM_GUILD_ID);
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Discord server saved.').first()).toBeVisible();
  // Once the server answered, the roles are picked by name.
  const subscriberRole = card.getByLabel(/Kick subscriber/);
  await expect(subscriberRole.locator('option', { hasText: '@Subscriber' })).toBeAttached();
  await subscriberRole.selectOption({ label: '@Subscriber' });
  await card.getByRole('button', { name: 'Save' }).click();
  const check = card.getByRole('list', { name: 'Discord check' });
  await expect(check).toContainText('Manage Roles permission: The bot may give and take roles.');
  await expect(check).toContainText("@Subscriber is below the bot's highest role.");
  await expectAccessible(page);
  await screenshot(page, 'discord-roles-1-integrations');

  // A viewer links Kick with !verify in the Chat Simulator, then Discord through the OAuth simulator.
  const sim = await page.context().newPage();
  await sim.goto('/admin/chat-simulator');
  await expect(sim.getByRole('heading', { name: 'Chat Simulator' })).toBeVisible();
  const fan = await linkedChatter(browser, sim, page, 'Gifter', 0, { keepPage: true });
  const discordName = `gift${fan.kickName.slice(-6)}`.toLowerCase();
  // The viewer's page still shows the Connect Kick dialog over the profile: a fresh page, as a
  // viewer coming back would (a click on the user menu under the dialog never lands).
  await fan.page.goto('/');
  await fan.page.locator('#kb-user-menu').click();
  await fan.page.getByRole('button', { name: 'Profile', exact: true }).click();
  const profile = fan.page.getByRole('dialog', { name: 'Profile Settings' });
  await expect(profile).toContainText(`Linked as ${fan.kickName}`);
  await profile.getByRole('button', { name: 'Link Discord', exact: true }).click();
  await fan.page.getByLabel('Discord username').fill(discordName);
  await fan.page.getByRole('button', { name: 'Authorize', exact: true }).click();
  await expect(fan.page.getByText('Your Discord account is linked.')).toBeVisible();
  const discordId = simulatedDiscordId(discordName);

  const rolesOf = async () => {
    const res = await page.request.get('/dev/discord/guild');
    expect(res.status()).toBe(200);
    const state = (await res.json()) as { members: Array<{ userId: string; roles: string[] }> };
    return state.members.find((m) => m.userId === discordId)?.roles ?? [];
  };
  expect(await rolesOf()).not.toContain(SUBSCRIBER_ROLE);

  // Kick's signed gifted-subs event from the viewer: two subs that end in GIFT_SECONDS.
  const sentAt = Date.now();
  const sent = await page.request.post('/api/admin/chat/simulate-event', {
    headers: json,
    data: { kind: 'gift', gifter: fan.kickName, giftees: ['lucky_a', 'lucky_b'], expiresInSeconds: GIFT_SECONDS },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  expect(((await sent.json()) as { status: number }).status).toBe(200);
  // The event's own sweep gives the role at once; it must be seen before the subs end.
  await expect.poll(rolesOf, { timeout: (GIFT_SECONDS - 5) * 1000 }).toContain(SUBSCRIBER_ROLE);

  // The gifted subs end: the role is taken (the sweep set for the end), not before. Kick's
  // `expires_at` has whole seconds, so the end may come up to a second early.
  await expect.poll(rolesOf, { timeout: (GIFT_SECONDS + 40) * 1000 }).not.toContain(SUBSCRIBER_ROLE);
  expect(Date.now() - sentAt).toBeGreaterThanOrEqual((GIFT_SECONDS - 1) * 1000);

  // Nothing left waiting or refused on Integrations.
  await expect(async () => {
    await page.reload();
    await expect(
      page
        .getByRole('region', { name: /Discord server: roles and go-live posts/ })
        .getByText(/Queue: 0 waiting, 0 refused/),
    ).toBeVisible({ timeout: 5000 });
  }).toPass({ timeout: 30_000 });
  await expect(card.getByRole('alert')).toHaveCount(0);
  await screenshot(page, 'discord-roles-2-after');
  await fan.page.context().close();
});
