/**
 * The Moderator role (docs/security.md#roles): granted and revoked by admins (Users page and
 * `npm run admin -- grant <steamId> --role Moderator`), audited; a Moderator runs giveaways and
 * games (in the staff audience of the hubs) and delivers Fulfilment items, but rejecting (a
 * refund) stays with admins. Which routes and hub calls each role reaches is the authorisation
 * matrix's (plugins/authorisation-matrix.test.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { adminUserMessages } from '@kickback/common/http/admin-users';
import { giveawayHub } from '@kickback/common/hubs/giveaway';
import { splitOrStealHub } from '@kickback/common/hubs/split-or-steal';
import { auditLog } from '../../db/schema/audit';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { addProduct, givePoints } from '../../../test/economy';
import { HubClient, listen, WallClock } from '../../../test/hub-client';
import { WARM_UP_TIMEOUT, warmUp } from '../../../test/warm';
import { runShellCommand, shellCommands } from '../shell/commands';

let t: TestApp;
let url: string;
let admin: TestUser;
const clients: HubClient[] = [];
beforeAll(warmUp, WARM_UP_TIMEOUT);
beforeAll(async () => {
  t = await buildTestApp({ clock: new WallClock() });
  url = await listen(t.app);
  admin = await t.signIn({ role: 'Admin', name: 'Boss' });
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await t?.close();
});

async function open(
  hub: typeof giveawayHub | typeof splitOrStealHub,
  as: TestUser,
  query: Record<string, string> = {},
) {
  const client = new HubClient(url, hub, { query, cookie: as.cookie });
  clients.push(client);
  return client.connected();
}

const roleAudit = async (userId: string) =>
  (
    await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, userId), eq(auditLog.action, 'user.role')))
  ).map((a) => [a.before, a.after]);

describe('granting and revoking Moderator', () => {
  it('an admin grants and revokes it on the Users page, audited; the role applies at once', async () => {
    const mod = await t.signIn({ name: 'Mia' });
    expect((await t.call({ url: '/api/predictions', as: mod })).statusCode).toBe(403);
    const grant = await t.call({
      method: 'POST',
      url: `/api/admin/users/${mod.user.id}/role`,
      as: admin,
      body: { role: 'Moderator' },
    });
    expect(grant.statusCode, grant.body).toBe(200);
    expect(grant.json()).toMatchObject({
      message: adminUserMessages.roleChanged('Moderator'),
      user: { role: 'Moderator' },
    });
    expect((await t.call({ url: '/api/predictions', as: mod })).statusCode).toBe(200);
    // A Moderator cannot grant roles, their own or anyone's.
    const self = await t.call({
      method: 'POST',
      url: `/api/admin/users/${mod.user.id}/role`,
      as: mod,
      body: { role: 'Admin' },
    });
    expect(self.statusCode).toBe(403);
    expect((await t.reload(mod.user.id)).role).toBe('Moderator');

    await t.call({ method: 'POST', url: `/api/admin/users/${mod.user.id}/role`, as: admin, body: { role: 'User' } });
    expect((await t.call({ url: '/api/predictions', as: mod })).statusCode).toBe(403);
    expect(await roleAudit(mod.user.id)).toEqual([
      [{ role: 'User' }, { role: 'Moderator' }],
      [{ role: 'Moderator' }, { role: 'User' }],
    ]);
  });

  it('`npm run admin -- grant <steamId> --role Moderator` grants it, `revoke` takes it back; Admin unless told', async () => {
    const ops = await t.signIn({ name: 'Ops' });
    // As the CLI does: the command reads its argv, then runs with the arguments validated.
    const run = (name: 'grant' | 'revoke', argv: string[]) =>
      runShellCommand({ db: t.database.db, app: t.app }, name, shellCommands[name].fromArgv(argv));
    expect(await run('grant', [ops.user.steamId, '--role', 'Moderator'])).toMatch(/is now Moderator/);
    expect((await t.reload(ops.user.id)).role).toBe('Moderator');
    expect(await run('grant', [`--role=Moderator`, ops.user.steamId])).toMatch(/already Moderator/);
    await expect(run('grant', [ops.user.steamId, '--role', 'God'])).rejects.toThrow(/role must be Moderator or Admin/);
    expect(await run('revoke', [ops.user.steamId])).toMatch(/is now User/);
    expect(await run('grant', [ops.user.steamId])).toMatch(/is now Admin/);
    expect(await roleAudit(ops.user.id)).toEqual([
      [{ role: 'User' }, { role: 'Moderator' }],
      [{ role: 'Moderator' }, { role: 'User' }],
      [{ role: 'User' }, { role: 'Admin' }],
    ]);
  });
});

describe('what a Moderator does', () => {
  it('runs the giveaway: its calls answer and the staff events reach the Moderator', async () => {
    const mod = await t.signIn({ role: 'Moderator', name: 'Giveaway Mod' });
    const client = await open(giveawayHub, mod);
    expect(await client.call('GetState')).toMatchObject({ ok: true });
    const boss = await open(giveawayHub, admin);
    await boss.ok('ClearParticipants');
    await client.waitFor('ReceiveParticipants');
  });

  it('sees a private game as its staff do', async () => {
    const mod = await t.signIn({ role: 'Moderator', name: 'Game Mod' });
    const p1 = await t.signIn({ name: 'P1' });
    const p2 = await t.signIn({ name: 'P2' });
    const created = await t.call({
      method: 'POST',
      url: '/api/SplitOrStealGame/create',
      as: mod,
      body: { reward: 1, counterInSeconds: 60, isPrivate: true, player1UserId: p1.user.id, player2UserId: p2.user.id },
    });
    expect(created.statusCode, created.body).toBe(200);
    const gameId = created.json().gameId as string;
    const client = await open(splitOrStealHub, mod, { gameid: gameId });
    expect(await client.call('GetGameState')).toMatchObject({ ok: true, data: { id: gameId, isPrivate: true } });
    const stranger = await open(splitOrStealHub, await t.signIn({ name: 'Nosy' }), { gameid: gameId });
    expect(await stranger.call('GetGameState')).toMatchObject({ ok: true, data: null });
  });

  it('marks a Fulfilment item delivered but cannot reject (refund) it', async () => {
    const mod = await t.signIn({ role: 'Moderator', name: 'Fulfil Mod' });
    const buyer = await t.signIn({ name: 'Buyer' });
    await givePoints(t, buyer.user.id, '100');
    const product = await addProduct(t, { name: 'Sticker', price: '10' });
    expect(
      (await t.call({ method: 'POST', url: '/api/Order/OrderProduct', as: buyer, body: { productId: product.id } }))
        .statusCode,
    ).toBe(200);
    const queue = await t.call({ url: '/api/admin/fulfilment?status=pending&kind=order', as: mod });
    expect(queue.statusCode).toBe(200);
    const item = queue.json().items.find((i: { user: { id: string } }) => i.user.id === buyer.user.id) as {
      id: number;
    };
    const rejected = await t.call({
      method: 'POST',
      url: `/api/admin/fulfilment/${item.id}/reject`,
      as: mod,
      body: { note: 'no' },
    });
    expect(rejected.statusCode).toBe(403);
    expect((await t.reload(buyer.user.id)).points).toBe('90.00'); // no refund
    const delivered = await t.call({
      method: 'POST',
      url: `/api/admin/fulfilment/${item.id}/deliver`,
      as: mod,
      body: { note: 'sent' },
    });
    expect(delivered.statusCode, delivered.body).toBe(200);
  });
});
