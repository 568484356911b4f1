/**
 * Custom commands and timers under real concurrency (PostgreSQL; docs/features/custom-commands.md):
 * two app processes on one database, many callers of a command with a global cooldown at the same
 * moment get one answer between them (the conditional UPDATE of the command's last use), and many
 * timer rounds at once on both processes post one timer message (the round row's conditional
 * UPDATE, the timers locked with SKIP LOCKED).
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows';
import { appsClosedAfterEach, type TestApp } from '../../../test/app';
import { chatMessage } from '../../../test/kick';
import { describeRace } from '../../../test/race-database';
import { timerRound } from './timers';

const apps = appsClosedAfterEach();

async function command(t: TestApp, body: Record<string, unknown>) {
  const mod = await t.signIn({ role: 'Moderator', name: `Mod${Math.random().toString(36).slice(2, 6)}` });
  const res = await t.call({
    method: 'POST',
    url: '/api/admin/commands',
    as: mod,
    body: {
      aliases: [],
      userCooldownSeconds: 0,
      globalCooldownSeconds: 0,
      permission: 'everyone',
      liveOnly: false,
      cost: 0,
      enabled: true,
      ...body,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return mod;
}

const repliesOf = async (t: TestApp, ids: string[]) =>
  rowsOf<{ n: number }>(
    await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM chat_messages, unnest(replies) r WHERE message_id IN ${sql.raw(`(${ids.map((i) => `'${i}'`).join(',')})`)}`,
    ),
  )[0]!.n;

describe('custom commands across two processes', () => {
  describeRace('one answer per global cooldown window, one timer post per round', () => {
    it('answers 20 simultaneous callers on two processes once', async () => {
      const [a, b] = await apps.twoProcesses();
      await command(a, { name: 'once', response: 'first!', globalCooldownSeconds: 60 });
      const ids: string[] = [];
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const t = i % 2 === 0 ? a : b;
          const m = chatMessage(t, { kickUserId: `r${i}`, kickUsername: `racer${i}`, content: '!once' });
          ids.push(m.messageId);
          return t.app.chat.process(m, 'simulator');
        }),
      );
      expect(await repliesOf(a, ids)).toBe(1);
      const [row] = rowsOf<{ uses: string }>(await a.database.db.execute(sql`SELECT uses::text FROM chat_commands`));
      expect(row!.uses).toBe('1');
    });

    it('posts one timer message when rounds run at once on two processes', async () => {
      const [a, b] = await apps.twoProcesses();
      const mod = await a.signIn({ role: 'Moderator', name: 'Timer Mod' });
      for (const name of ['First', 'Second']) {
        const res = await a.call({
          method: 'POST',
          url: '/api/admin/commands/timers',
          as: mod,
          body: { name, message: `${name} timer`, intervalMinutes: 5, minLines: 0, liveOnly: false, enabled: true },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      const rounds = await Promise.all(
        Array.from({ length: 12 }, (_, i) => timerRound((i % 2 === 0 ? a : b).app, 5_000)),
      );
      expect(rounds.filter((r) => r.posted !== null)).toHaveLength(1);
      const [posts] = rowsOf<{ n: number }>(
        await a.database.db.execute(sql`SELECT count(*)::int AS n FROM chat_out WHERE body LIKE '%timer'`),
      );
      expect(posts!.n).toBe(1);
    });
  });
});
