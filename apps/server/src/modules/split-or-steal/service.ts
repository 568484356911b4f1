/**
 * Split or Steal on the server: creating a game, and the actions players and admins take, run by
 * the game engine (../../games/runner: lock, rule, save, pay, deadline, emit after commit) with
 * the definition of ./game. This adds who may act and what the admin page lists.
 */
import { canModerate } from '@kickback/common/access';
import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  cancel as cancelRule,
  dealAnswers,
  join as joinRule,
  newGame,
  answerContextFor,
  select as selectRule,
  type AnswerContext,
  type Ball,
  type Slot,
} from '@kickback/common/games/split-or-steal';
import type { SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import type { createSplitOrStealBody, SplitOrStealSummary } from '@kickback/common/http/split-or-steal';
import { centsToText, decimalToNumber, toCents } from '@kickback/common/money';
import { staffPrizeMessages } from '@kickback/common/http/staff-prizes';
import type { z } from 'zod';
import { splitOrStealGames, type SplitOrStealRow } from '../../db/schema/games';
import { users, type UserRow } from '../../db/schema/users';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { gameHub, LiveGame, type Person } from '../../games/live-game';
import { actorOf, recordAudit } from '../audit/service';
import { isModeratorRun } from '../staff-prizes/service';
import { canSee, findGame, toGame } from './repository';
import { splitOrStealGame } from './game';

export class SplitOrStealService {
  /** The game registered with the engine, with the kit's plumbing (../../games/live-game). */
  private readonly live;

  constructor(private readonly app: FastifyInstance) {
    this.live = new LiveGame(app, splitOrStealGame(app.log), {
      canSee: (_game, row, viewer) => canSee(row, viewer),
      recordAudit: (tx, admin: UserRow, entry) => recordAudit(tx, actorOf(admin), entry),
    });
  }

  private now(): Date {
    return this.app.clock.now();
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
          .select({ id: users.id, excluded: users.excluded, role: users.role })
          .from(users)
          .where(inArray(users.id, wanted))
      : [];
    // A game a Moderator runs seats no staff account (docs/features/staff-prize-limits.md).
    const staffBarred = admin.role !== 'Admin';
    for (const [label, id] of [
      ['Player 1', player1UserId],
      ['Player 2', player2UserId],
    ] as const) {
      if (!id) continue;
      const user = found.find((u) => u.id === id);
      if (!user) throw notFound(`${label} was not found.`);
      if (user.excluded) throw badRequest(`${label} is an excluded account and cannot play.`);
      if (staffBarred && canModerate(user.role)) throw badRequest(staffPrizeMessages.staffCannotPlay);
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

  cancel(admin: UserRow, gameId: string): Promise<SplitOrStealState> {
    return this.live.adminAct(admin, gameId, cancelRule, {
      action: 'splitorsteal.cancel',
      targetType: 'split_or_steal_game',
      before: (row) => ({ status: row.status }),
      after: (row) => ({ status: row.status }),
    });
  }

  // ---------------------------------------------------------------- players

  async join(user: UserRow | null, gameId: string, slot: Slot): Promise<SplitOrStealState> {
    // A staff account never sits in a game a Moderator created (its creator does not change).
    const staffBarred =
      canModerate(user?.role) &&
      (await isModeratorRun(this.app.db, [(await findGame(this.app.db, gameId))?.createdBy ?? null]));
    return this.live.act(user, gameId, (game, u) => {
      if (u.excluded) throw forbidden('This account cannot take part in games.');
      if (staffBarred) throw forbidden(staffPrizeMessages.staffCannotPlay);
      return joinRule(game, { slot, userId: u.id, now: this.now().getTime() });
    });
  }

  select(user: UserRow | null, gameId: string, ball: Ball): Promise<SplitOrStealState> {
    return this.live.act(user, gameId, (game, u) =>
      selectRule(game, { userId: u.id, ball, now: this.now().getTime() }),
    );
  }

  // ---------------------------------------------------------------- reads

  /** Throws 404 for an unknown game; answers whether the viewer may see it. */
  visibility(gameId: string, viewer: Person | null): Promise<{ row: SplitOrStealRow; visible: boolean }> {
    return this.live.visibility(gameId, viewer);
  }

  /** The state for this viewer, or null when the game is private to them. */
  state(gameId: string, viewer: Person | null): Promise<SplitOrStealState | null> {
    return this.live.state(gameId, viewer);
  }

  /** The game's row when the viewer may see it: 404 unknown, 403 private to them. */
  mustSee(gameId: string, viewer: Person | null): Promise<SplitOrStealRow> {
    return this.live.mustSee(gameId, viewer);
  }

  /** The kit's hub handlers of this game (handshake, GetGameState). */
  hub() {
    return gameHub(this.live);
  }

  /** The viewer's own balls (everyone's once the game ended). */
  async answerContext(gameId: string, viewer: Person | null): Promise<AnswerContext> {
    const row = await this.live.mustSee(gameId, viewer);
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
