/**
 * The giveaway on two real server processes sharing one PostgreSQL database and one Redis: a key
 * typed in chat and delivered to process A's webhook enters the round; an admin socket connected
 * to process B receives the `ReceiveNewParticipant`; a roll on B draws from that participant.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and Redis
 * (TEST_REDIS_URL, else redis://127.0.0.1:6379). Outside CI the test is skipped, with the reason
 * printed, when either is missing; in CI a missing service fails it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import type pg from 'pg';
import {
  giveawayHub,
  type GiveawayParticipant,
  type GiveawayRoll,
  type GiveawayState,
} from '@kickback/common/hubs/giveaway';
import { loadConfig } from '../../config';
import { signKickDelivery } from '../../integrations/kick/signature';
import { kickTimestamp, simulatedChatMessage } from '../../integrations/kick/simulator';
import { ulid } from '../../lib/ulid';
import { openDatabase, type Database } from '../../db/client';
import { migrate } from '../../db/migrate';
import { users } from '../../db/schema/users';
import { createSession } from '../../lib/sessions';
import { upsertSteamUser } from '../auth/user-accounts';
import { HubClient } from '../../../test/hub-client';
import { admin, baseUrl, freePort, missing, redisUrl, serverDir, withDatabase } from '../../../test/multi-process';
import { nextSteamId } from '../../../test/app';

describe.skipIf(missing !== null)('the giveaway on two server processes sharing one PostgreSQL and one Redis', () => {
  const dbName = `kb_mpg_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const prefix = `kbtest:${dbName}:`;
  const processes: ChildProcess[] = [];
  const output: string[] = [];
  const kickKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clients: HubClient[] = [];
  let database: Database;
  let urls: string[] = [];

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    database = await openDatabase({ kind: 'postgres', url: withDatabase(baseUrl, dbName), poolSize: 2 });
    (database.raw as pg.Pool).on('error', () => undefined); // the drop at the end ends its connections
    await migrate(database);
    const ports = [await freePort(), await freePort()];
    urls = ports.map((p) => `http://127.0.0.1:${p}`);
    const secret = randomBytes(24).toString('hex');
    for (const port of ports) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverDir,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'development',
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATABASE_URL: withDatabase(baseUrl, dbName),
          REDIS_URL: redisUrl,
          REDIS_PREFIX: prefix,
          SESSION_SECRET: secret,
          DEMO_DATA: '0',
          LOG_LEVEL: 'warn',
          TIMER_SWEEP_MS: '1000',
          // Both processes trust the test's key, as if Kick had signed with it.
          KICK_WEBHOOK_PUBLIC_KEY: kickKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
      child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
      processes.push(child);
    }
    for (const url of urls) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const ok = await fetch(`${url}/healthz`)
          .then((r) => r.ok)
          .catch(() => false);
        if (ok) break;
        if (Date.now() > deadline) throw new Error(`server ${url} did not start:\n${output.join('')}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }, 90_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all(
      processes.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.exitCode !== null) return resolve();
            p.once('exit', () => resolve());
            p.kill('SIGTERM');
          }),
      ),
    );
    await database?.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }, 30_000);

  async function person(name: string, role: 'User' | 'Admin' = 'User') {
    const steamId = nextSteamId();
    let user = await upsertSteamUser(
      database.db,
      steamId,
      { steamId, personaName: name, avatarUrl: null },
      [],
      new Date(),
    );
    if (role === 'Admin') {
      [user] = (await database.db.update(users).set({ role }).where(eq(users.id, user.id)).returning()) as [
        typeof user,
      ];
    }
    const { token } = await createSession(database.db, user.id, new Date(), 'test');
    return { user, cookie: `kb_session=${token}` };
  }

  const broadcasterId = loadConfig({ NODE_ENV: 'development' }).kick.broadcasterUserId ?? '1000001';

  /** A chat message as Kick delivers it: a signed webhook delivery to one process. */
  async function say(url: string, kickId: string, username: string, text: string): Promise<number> {
    const now = new Date();
    const payload = simulatedChatMessage(
      { username, subscriber: false, userId: kickId },
      text,
      { userId: broadcasterId, username: 'vex' },
      now,
    );
    const body = Buffer.from(JSON.stringify(payload));
    const messageId = ulid(now);
    const timestamp = kickTimestamp(now);
    const res = await fetch(`${url}/webhooks/kick`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'kick-event-message-id': messageId,
        'kick-event-subscription-id': '01JSUBSCRIPTION0000000000',
        'kick-event-signature': signKickDelivery(kickKeys.privateKey, messageId, timestamp, body),
        'kick-event-message-timestamp': timestamp,
        'kick-event-type': 'chat.message.sent',
        'kick-event-version': '1',
      },
      body,
    });
    return res.status;
  }

  it("a key typed on A's webhook enters the round; B's admin socket hears it; a roll on B draws it", async () => {
    const [a, b] = urls as [string, string];
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
  }, 60_000);
});
