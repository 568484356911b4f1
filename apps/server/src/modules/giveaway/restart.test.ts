/**
 * The giveaway lives in PostgreSQL: a server stops and a new one on the same database has the same
 * keys, settings, participants, published seed hash and last roll — and the next key entered on
 * the new server joins the same round.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { giveawayHub, type GiveawayRoll, type GiveawayState } from '@kickback/common/hubs/giveaway';
import { buildTestApp, type TestApp } from '../../../test/app';
import { openTestDatabase } from '../../../test/database';
import { HubClient, listen, WallClock } from '../../../test/hub-client';
import { chatPayload, postDelivery, signedDelivery } from '../../../test/kick';

const apps: TestApp[] = [];
const clients: HubClient[] = [];
let database: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
afterAll(async () => {
  for (const c of clients) c.close();
  for (const a of apps) await a.close().catch(() => undefined);
  await database?.drop();
});

async function adminHub(t: TestApp): Promise<HubClient> {
  const url = await listen(t.app);
  const admin = await t.signIn({ role: 'Admin', name: 'Host' });
  const c = new HubClient(url, giveawayHub, { query: {}, cookie: admin.cookie });
  clients.push(c);
  return c.connected();
}

const say = async (t: TestApp, name: string, text: string) =>
  expect((await postDelivery(t, signedDelivery(chatPayload(t, name, text)))).statusCode).toBeLessThan(300);

describe('a restart', () => {
  it('keeps keys, settings, participants, the commitment and the last roll', async () => {
    database = await openTestDatabase();
    const clock = new WallClock();
    const first = await buildTestApp({ database, clock });
    apps.push(first);
    const hub1 = await adminHub(first);
    await hub1.ok('AddKey', 'ticket');
    const settings = (await hub1.ok<GiveawayState>('GetState')).settings;
    await hub1.ok('UpdateStateSettings', { ...settings, subLuck: 3, rewinCooldownInSeconds: 0 });
    await say(first, 'before_restart', 'ticket');
    const roll = await hub1.ok<GiveawayRoll>('Roll');
    const before = await hub1.ok<GiveawayState>('GetState');
    hub1.close();
    await first.close();

    const second = await buildTestApp({ database, clock });
    apps.push(second);
    const hub2 = await adminHub(second);
    const after = await hub2.ok<GiveawayState>('GetState');
    expect(after.keys).toEqual([{ key: 'ticket', isActive: true }]);
    expect(after.settings.subLuck).toBe(3);
    expect(after.participantCount).toBe(1);
    expect(after.nextSeedHash).toBe(before.nextSeedHash);
    expect(after.lastRoll?.rollId).toBe(roll.rollId);
    await say(second, 'after_restart', 'TICKET');
    expect((await hub2.ok<unknown[]>('GetParticipants')).length).toBe(2);
  });
});
