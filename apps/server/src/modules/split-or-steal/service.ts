/**
 * Split or Steal on the server: the pure rules of packages/common wrapped with storage, durable
 * deadlines, the ledger and broadcasts. Every action locks the game row for its transaction, so
 * actions on one game run one at a time on every process; the state it produced is broadcast to
 * the game's room only after the commit (STYLE rules 5 and 7).
 */
import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  cancel as cancelRule,
  dealAnswers,
  join as joinRule,
  newGame,
  onDeadline,
  answerContextFor,
  select as selectRule,
  type AnswerContext,
  type Ball,
  type Outcome,
  type Slot,
  type SplitOrStealError,
} from '@kickback/common/games/split-or-steal';
import { splitOrStealHub, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import type { createSplitOrStealBody, SplitOrStealSummary } from '@kickback/common/http/split-or-steal';
import { centsToText, decimalToNumber, toCents } from '@kickback/common/money';
import type { z } from 'zod';
import type { Tx } from '../../db/client';
import { splitOrStealGames, type SplitOrStealRow } from '../../db/schema/games';
import { users, type UserRow } from '../../db/schema/users';
import { type AfterCommit, transactionThen } from '../../lib/after-commit';
import { AppError, badRequest, forbidden, notFound, unauthorized } from '../../lib/errors';
import { actorOf, recordAudit } from '../audit/service';
import { applyBalanceChange } from '../ledger/service';
import { canSee, findGame, lockGame, presentState, roomOf, saveGame, toGame, type Viewer } from './repository';

export const TIMER_KIND = 'split_or_steal';
export const GAME_NOT_FOUND = 'Game not found.';
export const GAME_IS_PRIVATE = 'Game Is Private';

const refusals: Record<SplitOrStealError, [number, string]> = {
  not_joinable: [409, 'The game is not taking players.'],
  slot_taken: [409, 'That seat is taken.'],
  slot_reserved: [403, 'That seat is reserved for another player.'],
  already_seated: [409, 'You are already playing in this game.'],
  reserved_elsewhere: [409, 'Your seat is the other one.'],
  not_choosing: [409, 'Choosing is not open.'],
  not_a_player: [403, 'Only the players choose.'],
  choosing_over: [409, 'Time is up.'],
  already_final: [409, 'The game is already over.'],
  stale_deadline: [409, 'The game moved on.'],
  not_due: [409, 'Not yet.'],
};

function refused(error: SplitOrStealError): AppError {
  const [status, message] = refusals[error];
  return new AppError(status, message);
}

type Changed = Extract<Outcome, { ok: true }>;

export class SplitOrStealService {
  constructor(private readonly app: FastifyInstance) {}

  private now(): Date {
    return this.app.clock.now();
  }

  /** Queues the broadcast of a committed state to the game's room. */
  private announce(after: AfterCommit, state: Omit<SplitOrStealState, 'serverTime'>): void {
    after.push(() =>
      this.app.realtime.emit(splitOrStealHub, roomOf(state.id), 'ReceiveGameState', {
        ...state,
        serverTime: this.now().toISOString(),
      }),
    );
  }

  /** Stores an outcome, schedules its deadline, pays a settlement; queues the broadcast. */
  private async apply(tx: Tx, after: AfterCommit, id: string, outcome: Changed): Promise<SplitOrStealState> {
    const row = await saveGame(tx, id, outcome.game, this.now());
    if (outcome.deadline !== null && outcome.game.phaseVersion !== null) {
      await this.app.timers.schedule(tx, after, {
        kind: TIMER_KIND,
        subjectId: id,
        version: outcome.game.phaseVersion,
        dueAt: new Date(outcome.deadline),
      });
    }
    if (outcome.settlement) await this.payOut(tx, row, outcome.settlement.winnings);
    const state = await presentState(tx, row);
    this.announce(after, state);
    return { ...state, serverTime: this.now().toISOString() };
  }

  /**
   * Winnings in points through the ledger, in the transaction that ended the game: the status
   * change 3 → 4 happens once under the row lock, so the payout does too (the reference
   * `splitorsteal:{game}:{slot}` names it in the ledger).
   */
  private async payOut(tx: Tx, row: SplitOrStealRow, winnings: readonly [bigint, bigint]): Promise<void> {
    const seats = [row.player1UserId, row.player2UserId] as const;
    for (const slot of [1, 2] as const) {
      const userId = seats[slot - 1];
      const cents = winnings[slot - 1]!;
      if (!userId || cents <= 0n) continue;
      const result = await applyBalanceChange(tx, {
        userId,
        currency: 'points',
        delta: { cents },
        reason: 'game_win',
        reference: `splitorsteal:${row.id}:${slot}`,
        memo: 'Split or Steal winnings',
        earning: true,
      });
      if (!result) this.app.log.warn({ game: row.id, userId }, 'split or steal winnings skipped: excluded account');
    }
  }

  // ---------------------------------------------------------------- admin

  async create(admin: UserRow, input: z.output<typeof createSplitOrStealBody>): Promise<{ gameId: string }> {
    const { player1UserId, player2UserId, reward, counterInSeconds, isPrivate } = input;
    if (player1UserId && player1UserId === player2UserId) {
      throw badRequest('Player 1 and Player 2 must be different users.');
    }
    if (isPrivate && (!player1UserId || !player2UserId)) {
      throw badRequest('A private game needs both players chosen: nobody else can see it to join.');
    }
    const wanted = [player1UserId, player2UserId].filter((v): v is string => v !== null);
    const found = wanted.length
      ? await this.app.db
          .select({ id: users.id, excluded: users.excluded })
          .from(users)
          .where(inArray(users.id, wanted))
      : [];
    for (const [label, id] of [
      ['Player 1', player1UserId],
      ['Player 2', player2UserId],
    ] as const) {
      if (!id) continue;
      const user = found.find((u) => u.id === id);
      if (!user) throw notFound(`${label} was not found.`);
      if (user.excluded) throw badRequest(`${label} is an excluded account and cannot play.`);
    }
    const game = newGame({
      rewardCents: toCents(reward),
      counterInSeconds,
      designated: [player1UserId, player2UserId],
      answers: dealAnswers(randomInt(2) === 1, randomInt(2) === 1),
    });
    return this.app.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(splitOrStealGames)
        .values({
          status: game.status,
          version: game.version,
          reward: centsToText(game.rewardCents),
          counterSeconds: game.counterInSeconds,
          isPrivate,
          designated1UserId: player1UserId,
          designated2UserId: player2UserId,
          player1Answer1: game.answers[0][0],
          player1Answer2: game.answers[0][1],
          player2Answer1: game.answers[1][0],
          player2Answer2: game.answers[1][1],
          createdBy: admin.id,
          createdAt: this.now(),
        })
        .returning({ id: splitOrStealGames.id });
      const gameId = row!.id;
      await recordAudit(tx, actorOf(admin), {
        action: 'splitorsteal.create',
        targetType: 'split_or_steal_game',
        targetId: gameId,
        after: { player1UserId, player2UserId, reward, counterInSeconds, isPrivate },
      });
      return { gameId };
    });
  }

  async cancel(admin: UserRow, gameId: string): Promise<SplitOrStealState> {
    return transactionThen(
      this.app.db,
      async (tx, after) => {
        const row = await lockGame(tx, gameId);
        if (!row) throw notFound(GAME_NOT_FOUND);
        const outcome = cancelRule(toGame(row));
        if (!outcome.ok) throw refused(outcome.error);
        const state = await this.apply(tx, after, gameId, outcome);
        await recordAudit(tx, actorOf(admin), {
          action: 'splitorsteal.cancel',
          targetType: 'split_or_steal_game',
          targetId: gameId,
          before: { status: row.status },
          after: { status: state.status },
        });
        return state;
      },
      this.app.log,
    );
  }

  // ---------------------------------------------------------------- players

  /** A player action: lock, check the user may act, run the rule, store, broadcast after commit. */
  private async act(
    user: UserRow | null,
    gameId: string,
    rule: (game: ReturnType<typeof toGame>, user: UserRow) => Outcome,
  ): Promise<SplitOrStealState> {
    if (!user) throw unauthorized();
    return transactionThen(
      this.app.db,
      async (tx, after) => {
        const row = await lockGame(tx, gameId);
        if (!row) throw notFound(GAME_NOT_FOUND);
        if (!canSee(row, user)) throw forbidden(GAME_IS_PRIVATE);
        const game = toGame(row);
        const outcome = rule(game, user);
        if (!outcome.ok) throw refused(outcome.error);
        if (outcome.game === game) return { ...(await presentState(tx, row)), serverTime: this.now().toISOString() };
        return this.apply(tx, after, gameId, outcome);
      },
      this.app.log,
    );
  }

  join(user: UserRow | null, gameId: string, slot: Slot): Promise<SplitOrStealState> {
    return this.act(user, gameId, (game, u) => {
      if (u.excluded) throw forbidden('This account cannot take part in games.');
      return joinRule(game, { slot, userId: u.id, now: this.now().getTime() });
    });
  }

  select(user: UserRow | null, gameId: string, ball: Ball): Promise<SplitOrStealState> {
    return this.act(user, gameId, (game, u) => selectRule(game, { userId: u.id, ball, now: this.now().getTime() }));
  }

  /** The timer handler: the stored deadline of a phase has come (6 → 3, 3 → 4 with payouts). */
  async fireDeadline(
    tx: Tx,
    gameId: string,
    version: number,
    after: AfterCommit,
  ): Promise<'done' | { notBefore: Date }> {
    const row = await lockGame(tx, gameId);
    if (!row) return 'done';
    const outcome = onDeadline(toGame(row), { version, now: this.now().getTime() });
    if (!outcome.ok) {
      if (outcome.error === 'not_due' && row.phaseEndsAt) return { notBefore: row.phaseEndsAt };
      return 'done'; // stale: the game moved on (cancelled) since this deadline was set
    }
    await this.apply(tx, after, gameId, outcome);
    return 'done';
  }

  // ---------------------------------------------------------------- reads

  /** Throws 404 for an unknown game; answers whether the viewer may see it. */
  async visibility(gameId: string, viewer: Viewer | null): Promise<{ row: SplitOrStealRow; visible: boolean }> {
    const row = await findGame(this.app.db, gameId);
    if (!row) throw notFound(GAME_NOT_FOUND);
    return { row, visible: canSee(row, viewer) };
  }

  /** The state for this viewer, or null when the game is private to them. */
  async state(gameId: string, viewer: Viewer | null): Promise<SplitOrStealState | null> {
    const { row, visible } = await this.visibility(gameId, viewer);
    if (!visible) return null;
    return { ...(await presentState(this.app.db, row)), serverTime: this.now().toISOString() };
  }

  /** The viewer's own balls (everyone's once the game ended). */
  async answerContext(gameId: string, viewer: Viewer | null): Promise<AnswerContext> {
    const { row, visible } = await this.visibility(gameId, viewer);
    if (!visible) throw forbidden(GAME_IS_PRIVATE);
    return answerContextFor(toGame(row), viewer?.id ?? null);
  }

  /** The latest games for the admin page, newest first, with who sits (or is reserved) where. */
  async recent(limit = 10): Promise<SplitOrStealSummary[]> {
    const p1 = alias(users, 'p1');
    const p2 = alias(users, 'p2');
    const rows = await this.app.db
      .select({
        id: splitOrStealGames.id,
        status: splitOrStealGames.status,
        reward: splitOrStealGames.reward,
        isPrivate: splitOrStealGames.isPrivate,
        createdAt: splitOrStealGames.createdAt,
        player1: p1.username,
        player2: p2.username,
      })
      .from(splitOrStealGames)
      .leftJoin(
        p1,
        eq(p1.id, sql`coalesce(${splitOrStealGames.player1UserId}, ${splitOrStealGames.designated1UserId})`),
      )
      .leftJoin(
        p2,
        eq(p2.id, sql`coalesce(${splitOrStealGames.player2UserId}, ${splitOrStealGames.designated2UserId})`),
      )
      .orderBy(desc(splitOrStealGames.createdAt), desc(splitOrStealGames.id))
      .limit(limit);
    return rows.map((r) => ({
      gameId: r.id,
      status: r.status,
      reward: decimalToNumber(r.reward),
      isPrivate: r.isPrivate,
      player1: r.player1,
      player2: r.player2,
      createdAt: r.createdAt.toISOString(),
    }));
  }
}
