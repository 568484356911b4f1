/** Steps of the journeys that go through the admin Chat Simulator: posting as a Kick user, linking one; granting points. */
import { expect, type Browser, type Page } from '@playwright/test';
import { newPerson, preAcceptAgeGate, signIn } from './helpers';

const json = { 'x-requested-with': 'kickback' };

/** The admin grants `points` to the user named `name` (Admin → Users' balance route). */
export async function grantPoints(admin: Page, name: string, points: number, reason: string) {
  const found = await admin.request.get(`/api/admin/users?query=${encodeURIComponent(name)}`, { headers: json });
  expect(found.status(), await found.text()).toBe(200);
  const id = ((await found.json()) as { items: Array<{ id: string }> }).items[0]!.id;
  const granted = await admin.request.post(`/api/admin/users/${id}/balance`, {
    headers: json,
    data: { currency: 'points', amount: points, reason },
  });
  expect(granted.status()).toBe(200);
}

/**
 * Ends every prediction on the suite's shared server and takes it off the overlay: the journeys
 * that bet from chat or look at the prediction overlay start from a hidden one, whatever another
 * journey's file left behind (docs/conventions.md#test-speed).
 */
export async function clearPredictions(admin: Page) {
  const listed = await admin.request.get('/api/predictions', { headers: json });
  expect(listed.status(), await listed.text()).toBe(200);
  const predictions = (await listed.json()) as Array<{ id: string; state: number }>;
  for (const p of predictions.filter((x) => x.state !== 0)) {
    // Open (1) or locked (3): cancelled, every bet refunded; then, settled, off the overlay.
    if (p.state === 1 || p.state === 3) {
      const r = await admin.request.post(`/api/predictions/${p.id}/cancel`, { headers: json });
      expect(r.ok(), await r.text()).toBe(true);
    }
    const hidden = await admin.request.post(`/api/predictions/${p.id}/hide`, { headers: json });
    expect(hidden.ok(), await hidden.text()).toBe(true);
  }
}

/**
 * Posts in chat as `kickName` from the simulator page, with or without the subscriber badge when
 * `subscriber` is given; resolves to the message's line in the log. The message box is found by its
 * exact label: once chat has lines, "Recent chat messages" matches "Message" too.
 */
export async function postInChat(sim: Page, kickName: string, text: string, opts: { subscriber?: boolean } = {}) {
  await sim.getByLabel('Kick username').fill(kickName);
  if (opts.subscriber !== undefined) await sim.getByLabel('Subscriber badge').setChecked(opts.subscriber);
  await sim.getByLabel('Message', { exact: true }).fill(text);
  await sim.getByRole('button', { name: 'Send to chat' }).click();
  const line = sim.getByRole('list', { name: 'Recent chat messages' }).getByRole('listitem').filter({ hasText: text });
  await expect(line.first()).toBeVisible();
  return line.first();
}

/**
 * A signed-in viewer who links a Kick account by !verify through the simulator, with `points`
 * granted by the admin (none when 0). The viewer's page stays open when `keepPage` is set.
 */
export async function linkedChatter(
  browser: Browser,
  sim: Page,
  admin: Page,
  prefix: string,
  points: number,
  opts: { keepPage?: boolean; kickName?: string; baseURL?: string } = {},
) {
  const person = newPerson(prefix);
  const kickName = opts.kickName ?? `kick_${person.steamId.slice(-6)}`;
  // A site of the journey's own (own-site.ts) gets a context with the age gate already confirmed.
  const context = await browser.newContext(opts.baseURL ? { baseURL: opts.baseURL } : {});
  if (opts.baseURL) await preAcceptAgeGate(context);
  const page = await context.newPage();
  await signIn(page, person);
  await page.locator('#kb-user-menu').click();
  await page.getByRole('button', { name: 'Profile', exact: true }).click();
  const profile = page.getByRole('dialog', { name: 'Profile Settings' });
  await profile.getByRole('button', { name: 'Link Kick', exact: true }).click();
  const command = (await page.getByTestId('kick-verify-command').textContent()) ?? '';
  const line = await postInChat(sim, kickName, command);
  await expect(line).toContainText(`@${kickName} your Kick account is now linked`);
  if (points > 0) await grantPoints(admin, person.name, points, 'e2e prediction stake');
  if (!opts.keepPage) await page.context().close();
  return { name: person.name, kickName, page };
}
