/**
 * Deal or No Deal on the server: creating a game (the cryptographic shuffle and the board
 * commitment happen here), and the actions the owner and admins take, run by the game engine
 * (../../games/runner: lock, rule, save, queue the prize, deadline, emit after commit) with the
 * definition of ./game. The rules decide who may act; this adds who may see a private game.
 */
import { canModerate } from '@kickback/common/access';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  answerOffer,
  answerSwapOffer,
  BOX_COUNT,
  cancel as cancelRule,
  claim as claimRule,
  commitmentBytes,
  deal,
  newGame,
  selectBox,
  start,
  type DealOrNoDealGame,
  type Outcome,
} from '@kickback/common/games/deal-or-no-deal';
import type { DealOrNoDealState } from '@kickback/common/hubs/deal-or-no-deal';
import type { createDealOrNoDealBody, DealOrNoDealSummary } from '@kickback/common/http/deal-or-no-deal';
import { centsToNumber, toCents } from '@kickback/common/money';
import { staffPrizeMessages } from '@kickback/common/http/staff-prizes';
import { users, type UserRow } from '../../db/schema/users';
import { transactionThen } from '../../lib/after-commit';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { gameHub, GAME_IS_PRIVATE, LiveGame, type Person } from '../../games/live-game';
import { actorOf, recordAudit } from '../audit/service';
import { dealOrNoDealGame, GAME_KIND, store } from './game';

/** The `live_games.kind` of Deal or No Deal (the public Live now list reads running games by it). */
export { GAME_KIND } from './game';

/** A private game is shown only to its player and to the staff (Moderators, Admins). */
export function canSee(game: DealOrNoDealGame, viewer: Person | null): boolean {
  if (!game.isPrivate) return true;
  return viewer !== null && (canModerate(viewer.role) || viewer.id === game.ownerId);
}

/** A uniformly random order of the 24 boxes (Fisher–Yates over crypto.randomInt). */
function shuffledOrder(): number[] {
  const order = Array.from({ length: BOX_COUNT }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

export class DealOrNoDealService {
  /** The game registered with the engine, with the kit's plumbing (../../games/live-game). */
  private readonly live;

  constructor(private readonly app: FastifyInstance) {
    this.live = new LiveGame(app, dealOrNoDealGame(app), {
      canSee: (game, _row, viewer) => canSee(game, viewer),
      recordAudit: (tx, admin: UserRow, entry) => recordAudit(tx, actorOf(admin), entry),
      // A game's owner and privacy are set when it is created and never change, and games are
      // never deleted: a handshake decides from a row read in the last 10 s.
      fixedVisibilityMs: 10_000,
    });
  }

  private now(): Date {
    return this.app.clock.now();
  }

  // ---------------------------------------------------------------- admin

  async create(admin: UserRow, input: z.output<typeof createDealOrNoDealBody>): Promise<{ gameId: string }> {
    const [player] = await this.app.db
      .select({ id: users.id, excluded: users.excluded, role: users.role })
      .from(users)
      .where(eq(users.id, input.playerUserId))
      .limit(1);
    if (!player) throw notFound('Player was not found.');
    if (player.excluded) throw badRequest('The player is an excluded account and cannot play.');
    // A game a Moderator runs is never for a staff account (docs/features/staff-prize-limits.md).
    if (admin.role !== 'Admin' && canModerate(player.role)) throw badRequest(staffPrizeMessages.staffCannotPlay);
    const board = deal(
      input.Amounts.map((a) => toCents(a)),
      shuffledOrder(),
    );
    const seed = randomBytes(32).toString('hex');
    const commitment = createHash('sha256').update(commitmentBytes(seed, board)).digest('hex');
    const now = this.now();
    const game = newGame({
      board,
      ownerId: player.id,
      isPrivate: input.isPrivate,
      seed,
      commitment,
      now: now.getTime(),
    });
    return transactionThen(this.app.db, async (tx, after) => {
      const row = await store.create(tx, game, player.id, now, admin.id);
      // The start deadline: a game its player never starts is cancelled (docs/features/deal-or-no-deal.md#statuses).
      await this.app.timers.schedule(tx, after, {
        kind: GAME_KIND,
        subjectId: row.id,
        version: game.phaseVersion!,
        dueAt: new Date(game.phaseEndsAt!),
      });
      await recordAudit(tx, actorOf(admin), {
        action: 'dealornodeal.create',
        targetType: 'deal_or_no_deal_game',
        targetId: row.id,
        // The amounts as a set (sorted), never which box holds which.
        after: {
          playerUserId: player.id,
          isPrivate: input.isPrivate,
          reward: input.reward,
          amounts: [...input.Amounts].sort((a, b) => a - b),
          commitment,
        },
      });
      return { gameId: row.id };
    });
  }

  cancel(admin: UserRow, gameId: string): Promise<DealOrNoDealState> {
    return this.live.adminAct(admin, gameId, cancelRule, {
      action: 'dealornodeal.cancel',
      targetType: 'deal_or_no_deal_game',
      before: (row) => ({ status: store.toGame(row).status }),
      after: (row) => ({ status: store.toGame(row).status }),
    });
  }

  // ---------------------------------------------------------------- the owner

  /** An action: the kit locks the row, the rule decides (and refuses anyone but the owner). */
  private act(
    user: UserRow | null,
    gameId: string,
    rule: (game: DealOrNoDealGame, userId: string, now: number) => Outcome,
  ): Promise<DealOrNoDealState> {
    return this.live.act(user, gameId, (game, u) => rule(game, u.id, this.now().getTime()));
  }

  start(user: UserRow | null, gameId: string) {
    return this.act(user, gameId, (g, userId) => start(g, userId));
  }

  selectBox(user: UserRow | null, gameId: string, boxId: number) {
    return this.act(user, gameId, (g, userId) => selectBox(g, { userId, boxId }));
  }

  answerOffer(user: UserRow | null, gameId: string, isDeal: boolean) {
    return this.act(user, gameId, (g, userId, now) => answerOffer(g, { userId, deal: isDeal, now }));
  }

  answerSwapOffer(user: UserRow | null, gameId: string, swap: boolean) {
    return this.act(user, gameId, (g, userId, now) => answerSwapOffer(g, { userId, swap, now }));
  }

  claim(user: UserRow | null, gameId: string) {
    return this.act(user, gameId, (g, userId) => claimRule(g, userId));
  }

  // ---------------------------------------------------------------- reads

  /** The state for this viewer, or null when the game is private to them. */
  state(gameId: string, viewer: Person | null): Promise<DealOrNoDealState | null> {
    return this.live.state(gameId, viewer);
  }

  /** The kit's hub handlers of this game (handshake, GetGameState). */
  hub() {
    return gameHub(this.live);
  }

  /** What the public verification page checks: the commitment, and once ended the seed and board. */
  async verification(gameId: string, viewer: Person | null) {
    const state = await this.state(gameId, viewer);
    if (!state) throw forbidden(GAME_IS_PRIVATE);
    return { gameId, status: state.status, commitment: state.commitment, seed: state.seed, board: state.board };
  }

  /** The latest games for the admin page, newest first. */
  async recent(limit = 10): Promise<DealOrNoDealSummary[]> {
    const rows = await store.recent(this.app.db, limit);
    return rows.map(({ row, ownerName: player }) => {
      const game = store.toGame(row);
      return {
        gameId: row.id,
        status: game.status,
        player,
        prize: game.winningCents === null ? null : centsToNumber(game.winningCents),
        isPrivate: game.isPrivate,
        createdAt: row.createdAt.toISOString(),
      };
    });
  }
}
