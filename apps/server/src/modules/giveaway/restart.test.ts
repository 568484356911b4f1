/**
 * The giveaway lives in PostgreSQL: a server stops and a new one on the same database has the same
 * keys, settings, participants, published seed hash and last roll — and the next key entered on
 * the new server joins the same round.
 */
import { describe, expect, it } from 'vitest';
import { giveawayHub, type GiveawayRoll, type GiveawayState } from '@kickback/common/hubs/giveaway';
import type { TestApp } from '../../../test/app';
import { HubClient } from '../../../test/hub-client';
import { chatPayload, postDelivery, signedDelivery } from '../../../test/kick';
import { restartableApp } from '../../../test/restartable-app';

const server = restartableApp();

async function adminHub(t: TestApp): Promise<HubClient> {
  const admin = await t.signIn({ role: 'Admin', name: 'Host' });
  return server.closeAfter(new HubClient(server.url, giveawayHub, { query: {}, cookie: admin.cookie })).connected();
}

const say = async (t: TestApp, name: string, text: string) =>
  expect((await postDelivery(t, signedDelivery(chatPayload(t, name, text)))).statusCode).toBeLessThan(300);

describe('a restart', () => {
  it('keeps keys, settings, participants, the commitment and the last roll', async () => {
    const first = await server.start();
    const hub1 = await adminHub(first);
    await hub1.ok('AddKey', 'ticket');
    const settings = (await hub1.ok<GiveawayState>('GetState')).settings;
    await hub1.ok('UpdateStateSettings', { ...settings, subLuck: 3, rewinCooldownInSeconds: 0 });
    await say(first, 'before_restart', 'ticket');
    const roll = await hub1.ok<GiveawayRoll>('Roll');
    const before = await hub1.ok<GiveawayState>('GetState');
    hub1.close();
    await server.stop();

    const second = await server.start();
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
