/**
 * What is running right now, read straight from the tables on every request (no cache: a handful
 * of small queries, and a cache would need invalidating from every game, the predictions, the
 * giveaway keys, the hunts, the raffles, the slot calls and the stream state). docs/features/live-now-and-disputes.md.
 */
import type { FastifyInstance } from 'fastify';
import { and, asc, count, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  LIVE_GAMES_PER_KIND,
  runningDealOrNoDeal,
  runningSplitOrSteal,
  type LiveGame,
  type LiveNow,
} from '@kickback/common/http/live';
import type { DealOrNoDealStatusCode } from '@kickback/common/games/deal-or-no-deal';
import type { SplitOrStealStatusCode } from '@kickback/common/games/split-or-steal';
import type { Db } from '../../db/client';
import { liveGames, splitOrStealGames } from '../../db/schema/games';
import { giveawayKeys } from '../../db/schema/giveaway';
import { hunts } from '../../db/schema/hunt';
import { raffles } from '../../db/schema/raffles';
import { slotCallSettings, slotCalls } from '../../db/schema/slot-calls';
import { users } from '../../db/schema/users';
import { GAME_KIND as DEAL_OR_NO_DEAL } from '../deal-or-no-deal/service';

const codesOf = (labels: Partial<Record<number, string>>) => Object.keys(labels).map(Number);

async function splitOrSteal(db: Db): Promise<LiveGame[]> {
  const p1 = alias(users, 'p1');
  const p2 = alias(users, 'p2');
  const rows = await db
    .select({
      id: splitOrStealGames.id,
      status: splitOrStealGames.status,
      createdAt: splitOrStealGames.createdAt,
      player1: p1.username,
      player2: p2.username,
    })
    .from(splitOrStealGames)
    .leftJoin(p1, eq(p1.id, sql`coalesce(${splitOrStealGames.player1UserId}, ${splitOrStealGames.designated1UserId})`))
    .leftJoin(p2, eq(p2.id, sql`coalesce(${splitOrStealGames.player2UserId}, ${splitOrStealGames.designated2UserId})`))
    .where(
      and(
        eq(splitOrStealGames.isPrivate, false),
        inArray(splitOrStealGames.status, codesOf(runningSplitOrSteal) as SplitOrStealStatusCode[]),
      ),
    )
    .orderBy(desc(splitOrStealGames.createdAt), desc(splitOrStealGames.id))
    .limit(LIVE_GAMES_PER_KIND);
  return rows.map((r) => ({
    id: r.id,
    kind: 'split-or-steal',
    title: 'Split or Steal',
    players: [r.player1, r.player2].filter((p): p is string => p !== null),
    status: runningSplitOrSteal[r.status] ?? '',
    link: `/game/splitorsteal/${r.id}`,
    createdAt: r.createdAt.toISOString(),
  }));
}

async function dealOrNoDeal(db: Db): Promise<LiveGame[]> {
  const running = codesOf(runningDealOrNoDeal).map(String);
  const rows = await db
    .select({
      id: liveGames.id,
      status: sql<number>`(${liveGames.state} ->> 'status')::int`,
      createdAt: liveGames.createdAt,
      player: users.username,
    })
    .from(liveGames)
    .leftJoin(users, eq(users.id, liveGames.ownerUserId))
    .where(
      and(
        eq(liveGames.kind, DEAL_OR_NO_DEAL),
        sql`${liveGames.state} ->> 'status' IN (${sql.join(
          running.map((s) => sql`${s}`),
          sql`, `,
        )})`,
        sql`coalesce((${liveGames.state} ->> 'isPrivate')::boolean, false) = false`,
      ),
    )
    .orderBy(desc(liveGames.createdAt), desc(liveGames.seq))
    .limit(LIVE_GAMES_PER_KIND);
  return rows.map((r) => ({
    id: r.id,
    kind: 'deal-or-no-deal',
    title: 'Deal or No Deal',
    players: r.player === null ? [] : [r.player],
    status: runningDealOrNoDeal[Number(r.status) as DealOrNoDealStatusCode] ?? '',
    link: `/game/dealornodeal/${r.id}`,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** The current prediction (what the overlay shows) while it takes bets or waits for its result. */
async function openPrediction(app: FastifyInstance): Promise<LiveNow['prediction']> {
  const prediction = await app.predictions.state();
  if (prediction.state === 1) return { question: prediction.content, status: 'open' };
  if (prediction.state === 3) return { question: prediction.content, status: 'locked' };
  return null;
}

async function giveawayOpen(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ key: giveawayKeys.keyLower })
    .from(giveawayKeys)
    .where(eq(giveawayKeys.isActive, true))
    .limit(1);
  return row !== undefined;
}

async function runningHunt(db: Db): Promise<LiveNow['hunt']> {
  const [row] = await db
    .select({ id: hunts.id, name: hunts.name, guessing: hunts.guessing })
    .from(hunts)
    .where(eq(hunts.status, 'running'))
    .limit(1);
  return row ? { id: row.id, name: row.name, guessingOpen: row.guessing === 'open', link: '/hunt' } : null;
}

/** The raffles selling tickets now: open, opened, not yet closed; closing soonest first. */
async function openRaffles(db: Db, now: Date): Promise<LiveNow['raffles']> {
  const rows = await db
    .select({ id: raffles.id, title: raffles.title, closesAt: raffles.closesAt })
    .from(raffles)
    .where(and(eq(raffles.status, 'open'), lte(raffles.opensAt, now), gt(raffles.closesAt, now)))
    .orderBy(asc(raffles.closesAt), asc(raffles.id))
    .limit(LIVE_GAMES_PER_KIND);
  return rows.map((r) => ({ id: r.id, title: r.title, closesAt: r.closesAt.toISOString(), link: `/raffles/${r.id}` }));
}

/** Slot calls while the streamer takes them, with the queue's length. */
async function openSlotCalls(db: Db): Promise<LiveNow['slotCalls']> {
  const [settings] = await db.select({ isOpen: slotCallSettings.isOpen }).from(slotCallSettings).limit(1);
  if (!settings?.isOpen) return null;
  const [queued] = await db.select({ n: count() }).from(slotCalls).where(eq(slotCalls.status, 'queued'));
  return { queued: Number(queued?.n ?? 0), link: '/calls' };
}

export async function liveNow(app: FastifyInstance): Promise<LiveNow> {
  const db = app.db;
  const [sos, dond, prediction, giveaway, hunt, raffleList, calls, streamLive] = await Promise.all([
    splitOrSteal(db),
    dealOrNoDeal(db),
    openPrediction(app),
    giveawayOpen(db),
    runningHunt(db),
    openRaffles(db, app.clock.now()),
    openSlotCalls(db),
    app.chat.isLive(),
  ]);
  const games = [...sos, ...dond].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return { streamLive, games, prediction, giveawayOpen: giveaway, hunt, raffles: raffleList, slotCalls: calls };
}
