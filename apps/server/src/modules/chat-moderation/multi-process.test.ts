/**
 * Chat moderation on two real server processes sharing one PostgreSQL database and one Redis
 * (docs/features/chat-moderation.md#the-log): a message breaking a filter, delivered by Kick to
 * both processes at the same moment (a redelivery, the load balancer sending each copy to a
 * different process), is acted on once — one deletion and one timeout at Kick, one log row.
 *
 * Kick is one simulator served by the test (`sharedKick`), so the calls of either process reach
 * the same place, with the bot connected in the database.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and Redis
 * (TEST_REDIS_URL, else redis://127.0.0.1:6379). Outside CI the test is skipped, with the reason
 * printed, when either is missing; in CI a missing service fails it.
 */
import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEFAULT_MODERATION_SETTINGS } from '@kickback/common/http/chat-moderation';
import { chatModerationLog } from '../../db/schema/chat-moderation';
import { ulid } from '../../lib/ulid';
import { writeSettings } from './settings';
import { connectKickBot, kickChat, missing, serversOnFreshDatabase, sharedKick } from '../../../test/multi-process';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(missing !== null)('chat moderation on two server processes', () => {
  const kickKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kick = sharedKick();
  const mp = serversOnFreshDatabase({
    tag: 'mod_mp',
    env: () => ({
      ...kick.env(),
      KICK_WEBHOOK_PUBLIC_KEY: kickKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    }),
    // The links filter, timing the sender out for 5 minutes: read by both processes at start.
    seed: ({ db }) =>
      writeSettings(
        db,
        {
          ...DEFAULT_MODERATION_SETTINGS,
          links: { ...DEFAULT_MODERATION_SETTINGS.links, enabled: true, action: 'timeout', timeoutMinutes: 5 },
        },
        new Date(),
      ).then(() => undefined),
  });

  beforeAll(async () => {
    const admin = await mp.person('Host', 'Admin');
    await connectKickBot(mp.urls[0]!, admin.cookie, kick);
  });

  it('a link delivered to both processes at once is deleted and its sender timed out once, logged once', async () => {
    const broadcasterUserId = kick.env().KICK_BROADCASTER_USER_ID!;
    const messages = Array.from({ length: 5 }, (_, i) => ({
      messageId: `dup-${i}-${ulid()}`,
      deliveryId: ulid(),
      sender: { userId: String(77_000_100 + i), username: `spammer_${i}` },
      text: `free skins at scam${i}.gg`,
    }));
    for (const m of messages) {
      const statuses = await Promise.all(
        mp.urls.map(async (url) => {
          const res = await kickChat(url, kickKeys.privateKey, m.sender, m.text, {
            messageId: m.messageId,
            deliveryId: m.deliveryId,
            broadcasterUserId,
          });
          return res.status;
        }),
      );
      expect(statuses, JSON.stringify(statuses)).toContain(200);
    }
    const ids = messages.map((m) => m.messageId);
    const deadline = Date.now() + 20_000;
    while (kick.state.deletions.filter((d) => ids.includes(d.messageId)).length < ids.length) {
      if (Date.now() > deadline) throw new Error(`deletions: ${JSON.stringify(kick.state.deletions)}\n${mp.output()}`);
      await sleep(50);
    }
    await sleep(500); // a second action, were there one, has reached Kick by now
    for (const m of messages) {
      expect(
        kick.state.deletions.filter((d) => d.messageId === m.messageId),
        m.messageId,
      ).toHaveLength(1);
      const bans = kick.state.bans.filter((b) => b.userId === m.sender.userId);
      expect(
        bans.map((b) => b.durationMinutes),
        m.sender.username,
      ).toEqual([5]);
      const log = await mp.database.db
        .select()
        .from(chatModerationLog)
        .where(eq(chatModerationLog.messageId, m.messageId));
      expect(
        log.map((r) => ({ action: r.action, outcome: r.outcome })),
        m.messageId,
      ).toEqual([{ action: 'timeout', outcome: 'done' }]);
    }
  });
});
