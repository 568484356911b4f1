/**
 * The giveaway on two real server processes sharing one PostgreSQL database and one Redis: a key
 * typed in chat and delivered to process A's webhook enters the round; an admin socket connected
 * to process B receives the `ReceiveNewParticipant`; a roll on B draws from that participant.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and Redis
 * (TEST_REDIS_URL, else redis://127.0.0.1:6379). Outside CI the test is skipped, with the reason
 * printed, when either is missing; in CI a missing service fails it.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  giveawayHub,
  type GiveawayParticipant,
  type GiveawayRoll,
  type GiveawayState,
} from '@kickback/common/hubs/giveaway';
import { HubClient } from '../../../test/hub-client';
import { kickChat, missing, serversOnFreshDatabase } from '../../../test/multi-process';

describe.skipIf(missing !== null)('the giveaway on two server processes sharing one PostgreSQL and one Redis', () => {
  const kickKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const mp = serversOnFreshDatabase({
    tag: 'mpg',
    // Both processes trust the test's key, as if Kick had signed with it.
    env: { KICK_WEBHOOK_PUBLIC_KEY: kickKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  });
  const { person } = mp;
  const clients: HubClient[] = [];
  afterAll(() => clients.forEach((c) => c.close()));

  /** A chat message as Kick delivers it: a signed webhook delivery to one process. */
  async function say(url: string, kickId: string, username: string, text: string): Promise<number> {
    return (await kickChat(url, kickKeys.privateKey, { userId: kickId, username }, text)).status;
  }

  it("a key typed on A's webhook enters the round; B's admin socket hears it; a roll on B draws it", async () => {
    const [a, b] = mp.urls as [string, string];
    const host = await person('Host', 'Admin');
    const onB = new HubClient(b, giveawayHub, { query: {}, cookie: host.cookie });
    clients.push(onB);
    await onB.connected();
    // A reads the keys (none yet) into memory with a first message; B's AddKey must reach it.
    expect(await say(a, '7700003', 'early_bird', 'hello before the key')).toBe(200);
    await onB.ok('AddKey', '!twoproc');
    await onB.ok('UpdateStateSettings', {
      isSubOnly: false,
      isClashIdLinkedOnly: false,
      isRustMagicCodeOnly: false,
      isRoobetCodeOnly: false,
      subLuck: 1,
      chatActivityFilterInSeconds: 0,
    });

    // The change reaches A through Redis within milliseconds; A reloads by itself only every 30 s.
    const typed = (async () => {
      for (let i = 0; i < 40 && onB.events('ReceiveNewParticipant').length === 0; i++) {
        expect(await say(a, '7700001', 'two_proc_fan', '!TwoProc ')).toBe(200);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const entry = await onB.waitFor<GiveawayParticipant>(
      'ReceiveNewParticipant',
      (p) => p.username === 'two_proc_fan',
      10_000,
    );
    await typed;
    expect(entry).toMatchObject({ kickUserId: '7700001', account: null });
    // Another chatter's message that is not the key enters no one.
    expect(await say(a, '7700002', 'just_chatting', 'hello')).toBe(200);

    const participants = await onB.ok<GiveawayParticipant[]>('GetParticipants');
    expect(participants.map((p) => p.username)).toEqual(['two_proc_fan']);
    // The count B shows is the round's, kept by the database whichever process entered (the key may
    // have been typed several times before A heard of it: still one).
    expect((await onB.ok<GiveawayState>('GetState')).participantCount).toBe(1);
    const roll = await onB.ok<GiveawayRoll>('Roll');
    expect(roll.eligibleCount).toBe(1);
    expect(roll.winners.map((w) => w.username)).toEqual(['two_proc_fan']);
    expect(onB.events('ReceiveNewParticipant')).toHaveLength(1);
    // A knew the winners before this roll (none): the roll on B must reach it too.
    const streamed = (async () => {
      for (let i = 0; i < 40 && onB.events('ReceiveNewWinnerMessage').length === 0; i++) {
        expect(await say(a, '7700001', 'two_proc_fan', `thanks ${i}`)).toBe(200);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const winnerMessage = await onB.waitFor<{ sender: { username: string } }>(
      'ReceiveNewWinnerMessage',
      () => true,
      10_000,
    );
    await streamed;
    expect(winnerMessage.sender.username).toBe('two_proc_fan');
  });
});
