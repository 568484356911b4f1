/**
 * Custom commands and timers on two real server processes sharing one PostgreSQL database and one
 * Redis, with Kick's chat deliveries split between them as a load balancer would
 * (docs/features/custom-commands.md): a timer posts once per due period whichever process's round
 * finds it due — also when the rounds of both processes pile up behind a slow database and run at
 * once — and a command with a global cooldown called by two viewers at the same moment, one on each
 * process, answers once.
 *
 * What the bot says is read where both processes send it: one Kick simulator served by the test
 * (`sharedKick`: a process's own simulator keeps its state in memory and answers only that process)
 * receives the posts of whichever process sends the queue, with the bot connected in the database;
 * the queued lines are rows of `chat_out`.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and Redis
 * (TEST_REDIS_URL, else redis://127.0.0.1:6379). Outside CI the test is skipped, with the reason
 * printed, when either is missing; in CI a missing service fails it.
 */
import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows';
import { connectKickBot, kickChat, missing, serversOnFreshDatabase, sharedKick } from '../../../test/multi-process';

const TIMER_TEXT = 'Two-process timer: follow the channel!';
const TICK_MS = 200;
const COMMANDS = ['once1', 'once2', 'once3', 'once4', 'once5', 'once6'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(missing !== null)('custom commands and timers on two server processes', () => {
  const kickKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kick = sharedKick();
  const mp = serversOnFreshDatabase({
    tag: 'cmd_mp',
    env: () => ({
      ...kick.env(),
      KICK_WEBHOOK_PUBLIC_KEY: kickKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      CHAT_TIMERS_TICK_MS: String(TICK_MS),
      KICK_CHAT_INTERVAL_MS: '100',
      KICK_CHAT_BURST: '20',
    }),
    // Rows both processes read from their start: a timer posted after every 4 chat lines, and the
    // commands, each with a global cooldown of a minute.
    seed: async ({ db }) => {
      await db.execute(sql`
        INSERT INTO chat_timers (name, message, interval_minutes, min_lines, live_only)
        VALUES ('Follow', ${TIMER_TEXT}, 0, 4, false)`);
      for (const name of COMMANDS) {
        await db.execute(sql`
          INSERT INTO chat_commands (name, response, global_cooldown_seconds)
          VALUES (${name}, ${`${name} answered {user}`}, 60)`);
      }
    },
  });
  let lineNo = 0;

  beforeAll(async () => {
    const admin = await mp.person('Host', 'Admin');
    await connectKickBot(mp.urls[0]!, admin.cookie, kick);
  });

  /** A chat line as Kick delivers it, to process `i`. */
  async function say(i: number, username: string, text: string): Promise<void> {
    const sender = {
      userId: `88${username.length}${username.charCodeAt(0)}${username.charCodeAt(username.length - 1)}`,
      username,
    };
    const res = await kickChat(mp.urls[i]!, kickKeys.privateKey, sender, text, {
      broadcasterUserId: kick.env().KICK_BROADCASTER_USER_ID!,
    });
    expect(res.status, await res.text()).toBe(200);
  }

  /** What the bot posted in the channel (the shared Kick simulator), oldest first. */
  const posted = async (): Promise<string[]> => kick.state.chat.map((m) => m.content);
  const queued = async (like: string) =>
    rowsOf<{ n: number }>(
      await mp.database.db.execute(sql`SELECT count(*)::int AS n FROM chat_out WHERE body LIKE ${like}`),
    )[0]!.n;
  const timerPosts = async () => (await posted()).filter((c) => c === TIMER_TEXT).length;

  async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) {
        const queue = await mp.database.db.execute(sql`SELECT * FROM chat_out`);
        const sender = await mp.database.db.execute(sql`SELECT * FROM chat_out_sender`);
        const timers = await mp.database.db.execute(sql`SELECT * FROM chat_timers`);
        const lines = await mp.database.db.execute(
          sql`SELECT message_id, received_at, handled_by, replies FROM chat_messages`,
        );
        const state = JSON.stringify({
          posted: await posted(),
          queue: rowsOf(queue),
          sender: rowsOf(sender),
          timers: rowsOf(timers),
          lines: rowsOf(lines),
        });
        throw new Error(`timed out waiting for ${what}: ${state}\n${mp.output()}`);
      }
      await sleep(50);
    }
  }

  /** Four chat lines, alternating between the processes: the timer is due again. */
  async function fourLines(): Promise<void> {
    for (let i = 0; i < 4; i++) await say(i % 2, 'chatty_viewer', `line ${++lineNo}`);
  }

  it('a timer posts once per due period across both processes, also when their rounds pile up', async () => {
    // Period 1: the rounds of both processes, every 200 ms each, find it due.
    await fourLines();
    await until(async () => (await timerPosts()) >= 1, 'the first timer post');
    await sleep(TICK_MS * 4); // both processes ran more rounds: nothing more is due
    expect(await timerPosts()).toBe(1);

    // Period 2: a slow database (the test holds the timers' table) makes the rounds of both
    // processes wait, then run at once.
    await mp.database.db.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE chat_timers IN ACCESS EXCLUSIVE MODE`);
      await sleep(TICK_MS * 2); // rounds begun before the lines come
      await fourLines();
      await sleep(TICK_MS * 2); // and after: a few rounds waiting in each process
    });
    await until(async () => (await timerPosts()) >= 2, 'the second timer post');
    await sleep(TICK_MS * 4);
    expect(await timerPosts()).toBe(2);
    expect(await queued(TIMER_TEXT)).toBe(2);
  });

  it('a command with a global cooldown called at the same moment on both processes answers once', async () => {
    for (const name of COMMANDS) {
      await Promise.all([say(0, `ann_${name}`, `!${name}`), say(1, `bob_${name}`, `!${name}`)]);
    }
    await until(
      async () => (await posted()).filter((c) => c.includes('answered')).length >= COMMANDS.length,
      'the answers',
    );
    await sleep(500); // a second answer, were there one, is queued by now
    const answers = (await posted()).filter((c) => c.includes('answered'));
    for (const name of COMMANDS) {
      expect(
        answers.filter((c) => c.includes(`${name} answered`)),
        name,
      ).toHaveLength(1);
      expect(await queued(`%${name} answered%`), name).toBe(1);
    }
    const uses = rowsOf<{ name: string; uses: string }>(
      await mp.database.db.execute(sql`SELECT name, uses::text AS uses FROM chat_commands ORDER BY name`),
    );
    expect(uses).toEqual(COMMANDS.map((name) => ({ name, uses: '1' })));
  });
});
