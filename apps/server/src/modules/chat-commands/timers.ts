/**
 * The chat timers' rounds (docs/features/custom-commands.md#timers): every round, the due timers
 * (their interval passed, enough chat lines since their last post, the stream live when they ask
 * for it) take turns, least recently posted first, and one of them posts through the outgoing chat
 * queue as an announcement. Two processes running a round at once post once between them: the
 * timers are locked with SKIP LOCKED, and the post is claimed by a conditional UPDATE of the
 * round's one row (its last post older than half a round).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { parseTemplate } from '@kickback/common/http/chat-commands';
import { rowsOf } from '../../db/rows';
import { transactionThen } from '../../lib/after-commit';
import { siteSlugs } from './service';

interface DueTimer {
  id: string;
  name: string;
  message: string;
  min_lines: number;
  since: string | Date;
}

export interface RoundResult {
  posted: { id: string; name: string; text: string } | null;
}

/** One round; `gapMs` is the shortest time between two timer posts (half the tick). */
export async function timerRound(app: FastifyInstance, gapMs: number): Promise<RoundResult> {
  const now = app.clock.now();
  const live = (await app.chat.isLive()) !== false;
  return transactionThen(
    app.db,
    async (tx, after) => {
      const due = rowsOf<DueTimer>(
        await tx.execute(sql`
          SELECT id, name, message, min_lines, COALESCE(last_posted_at, created_at) AS since
          FROM chat_timers
          WHERE enabled AND (${live} OR NOT live_only)
            AND (last_posted_at IS NULL
                 OR last_posted_at <= ${now.toISOString()}::timestamptz - make_interval(mins => interval_minutes))
          ORDER BY last_posted_at ASC NULLS FIRST, position, created_at
          FOR UPDATE SKIP LOCKED`),
      );
      // The post's time is read once the due timers are ours: a round that waited for them (a slow
      // database, another process) counts the lines that came meanwhile toward this post, so they
      // do not count again toward the next one.
      const postedAt = app.clock.now();
      for (const timer of due) {
        if (timer.min_lines > 0) {
          const [lines] = rowsOf<{ n: number }>(
            await tx.execute(sql`
              SELECT count(*)::int AS n FROM (
                SELECT 1 FROM chat_messages
                WHERE received_at > ${new Date(timer.since).toISOString()}::timestamptz
                  AND received_at <= ${postedAt.toISOString()}::timestamptz
                LIMIT ${timer.min_lines}) lines`),
          );
          if ((lines?.n ?? 0) < timer.min_lines) continue;
        }
        const claimed = await tx.execute(sql`
          UPDATE chat_timer_round SET last_post_at = ${postedAt.toISOString()}::timestamptz
          WHERE id = 1 AND (last_post_at IS NULL OR last_post_at <= ${new Date(postedAt.getTime() - gapMs).toISOString()}::timestamptz)
          RETURNING 1 AS ok`);
        if (rowsOf(claimed).length === 0) return { posted: null };
        await tx.execute(sql`
          UPDATE chat_timers SET last_posted_at = ${postedAt.toISOString()}::timestamptz, posts = posts + 1
          WHERE id = ${timer.id}`);
        const text = await fill(app, timer.message);
        after.push(() => app.chatOut.enqueue({ kind: 'announce', text }));
        return { posted: { id: timer.id, name: timer.name, text } };
      }
      return { posted: null };
    },
    app.log,
  );
}

/** A timer's message with its variables (no caller: {user} and {target} read as the channel). */
async function fill(app: FastifyInstance, message: string): Promise<string> {
  const { parts } = parseTemplate(message, siteSlugs);
  const channel = {
    messageId: 'timer',
    kickUserId: '',
    kickUsername: 'chat',
    color: null,
    isSubscriber: false,
    badges: [],
    content: '',
    sentAt: app.clock.now(),
  };
  return app.chatCommands.render(parts, channel, null, { uses: 0, balance: null });
}
