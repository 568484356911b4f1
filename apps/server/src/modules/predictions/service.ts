/**
 * Predictions on the server: opening one (one live at a time), the admin transitions run by the
 * game engine (./game), bets (./bets) with coalesced overlay updates (./broadcaster), and the
 * reads the overlay and the admin page make.
 */
import type { FastifyInstance } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  cancel as cancelRule,
  hide as hideRule,
  lock as lockRule,
  newPrediction,
  resolve as resolveRule,
  type PredictionOutcome,
  type PredictionGame,
} from '@kickback/common/games/prediction';
import { predictionHub, type PredictionState } from '@kickback/common/hubs/prediction';
import {
  predictionStaffMessages,
  type MyPredictionsPage,
  type openPredictionBody,
  type PredictionSummary,
} from '@kickback/common/http/prediction';
import { toCents } from '@kickback/common/money';
import type { Tx } from '../../db/client';
import { predictionBets } from '../../db/schema/predictions';
import type { UserRow } from '../../db/schema/users';
import { transactionThen } from '../../lib/after-commit';
import { badRequest, conflict, forbidden } from '../../lib/errors';
import { LiveGame } from '../../games/live-game';
import { actorOf, recordAudit } from '../audit/service';
import { placeBetInOrder, type BetMessage, type OrderedBet } from './bet-order';
import { betInOneStatement } from './bet-statement';
import { placeBet, type BetOutcome, type Bettor, type OnceGuard } from './bets';
import { PredictionBroadcaster } from './broadcaster';
import { PREDICTION_ROOM, predictionGame } from './game';
import { myPredictionBets } from './my-bets';
import { noPrediction, presentPrediction, summarise } from './presenter';
import { currentPrediction, predictionStore, PREDICTION_KIND, recentPredictions } from './store';

/**
 * Staff and their own predictions (docs/features/predictions.md#staff-and-their-own-predictions):
 * whoever bet on a prediction cannot lock or resolve it.
 */
async function refuseIfBettor(tx: Tx, predictionId: string, userId: string, action: string): Promise<void> {
  const [bet] = await tx
    .select({ answerId: predictionBets.answerId })
    .from(predictionBets)
    .where(and(eq(predictionBets.predictionId, predictionId), eq(predictionBets.userId, userId)));
  if (bet) throw forbidden(predictionStaffMessages.bettorCannotManage(action === 'lock' ? 'lock' : 'resolve'));
}

/** Serialises opening, so two admins cannot open two live predictions at once. */
const OPEN_LOCK = 7_240_515;
/** Bets update the overlay at most this often (a few frames a second, whatever the chat rate). */
export const BET_BROADCAST_MS = 250;

export class PredictionService {
  /** Predictions registered with the engine, with the kit's audited admin actions (../../games/live-game). */
  private readonly live;
  readonly broadcaster: PredictionBroadcaster;

  constructor(private readonly app: FastifyInstance) {
    this.live = new LiveGame(app, predictionGame(), {
      recordAudit: (tx, admin: UserRow, entry) => recordAudit(tx, actorOf(admin), entry),
    });
    this.broadcaster = new PredictionBroadcaster(app.realtime, () => this.state(), app.log, BET_BROADCAST_MS);
  }

  /** The current prediction as the overlay sees it (hidden when there is none). */
  async state(): Promise<PredictionState> {
    const row = await currentPrediction(this.app.db);
    const view = row ? await presentPrediction(this.app.db, row) : noPrediction();
    return { ...view, serverTime: this.app.clock.now().toISOString() };
  }

  async open(admin: UserRow, input: z.output<typeof openPredictionBody>): Promise<PredictionSummary> {
    const now = this.app.clock.now();
    const autoLockAt = input.autoLockAt ? new Date(input.autoLockAt).getTime() : null;
    if (autoLockAt !== null && autoLockAt <= now.getTime()) throw badRequest('autoLockAt must be in the future.');
    const game = newPrediction({
      question: input.question,
      answers: input.answers.map((a, i) => ({ id: i + 1, text: a.text, color: a.color.toLowerCase() })),
      autoLockAt,
      minBetCents: input.minBet == null ? null : toCents(input.minBet),
      maxBetCents: input.maxBet == null ? null : toCents(input.maxBet),
      now: now.getTime(),
    });
    const row = await transactionThen(
      this.app.db,
      async (tx, after) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${OPEN_LOCK})`);
        const live = await currentPrediction(tx);
        if (live) {
          const status = predictionStore.toGame(live).status;
          if (status === 1 || status === 3) throw conflict('A prediction is already live: resolve or cancel it first.');
        }
        const created = await predictionStore.create(tx, game, admin.id, now);
        if (autoLockAt !== null) {
          await this.app.timers.schedule(tx, after, {
            kind: PREDICTION_KIND,
            subjectId: created.id,
            version: game.phaseVersion!,
            dueAt: new Date(autoLockAt),
          });
        }
        await recordAudit(tx, actorOf(admin), {
          action: 'prediction.open',
          targetType: 'prediction',
          targetId: created.id,
          after: input,
        });
        const view = await presentPrediction(tx, created);
        after.push(() =>
          this.app.realtime.emit(predictionHub, PREDICTION_ROOM, 'ReceiveState', {
            ...view,
            serverTime: this.app.clock.now().toISOString(),
          }),
        );
        return created;
      },
      this.app.log,
    );
    return summarise(this.app.db, row);
  }

  private async transition(
    admin: UserRow,
    predictionId: string,
    action: string,
    rule: (game: PredictionGame) => PredictionOutcome,
    refuseBettor = false,
  ): Promise<PredictionState> {
    return this.live.adminAct(admin, predictionId, rule, {
      action: `prediction.${action}`,
      targetType: 'prediction',
      before: (row) => ({ version: row.version }),
      after: (row) => ({ version: row.version, state: row.state }),
      // Under the prediction's row lock, which a bet share-locks: no bet can slip in meanwhile.
      ...(refuseBettor ? { check: (tx: Tx) => refuseIfBettor(tx, predictionId, admin.id, action) } : {}),
    });
  }

  /** A staff account that bet on the prediction cannot lock or resolve it (403, saying why). */
  lock = (admin: UserRow, id: string) => this.transition(admin, id, 'lock', lockRule, true);
  /** Resolves, then announces the result in Kick chat (the outgoing queue: never merged nor dropped). */
  resolve = async (admin: UserRow, id: string, answerId: number) => {
    const view = await this.transition(admin, id, 'resolve', (g) => resolveRule(g, answerId), true);
    await this.app.chatOut
      .enqueue({ kind: 'announce', text: `Prediction result: "${view.resultAnswer ?? '?'}" wins — ${view.content}` })
      .catch((err: unknown) => this.app.log.error({ err, predictionId: id }, 'prediction result not queued for chat'));
    return view;
  };
  cancel = (admin: UserRow, id: string) => this.transition(admin, id, 'cancel', cancelRule);
  hide = (admin: UserRow, id: string) => this.transition(admin, id, 'hide', hideRule);

  /** My activity: the user's bets, newest first, with their results. */
  betsOf(userId: string, page: number): Promise<MyPredictionsPage> {
    return myPredictionBets(this.app.db, userId, page);
  }

  async recent(limit = 20): Promise<PredictionSummary[]> {
    const rows = await recentPredictions(this.app.db, limit);
    return Promise.all(rows.map((r) => summarise(this.app.db, r)));
  }

  bet(user: Bettor, bet: { option: number; cents: bigint }, once?: OnceGuard): Promise<BetOutcome> {
    return placeBet(this.app.db, user, bet, () => this.broadcaster.changed(), this.app.clock.now(), once);
  }

  /** How the chat's bets were taken so far: in one statement, or the general way (tests read it). */
  readonly betPaths = { oneStatement: 0, general: 0 };

  /**
   * A bet from chat: taken after the sender's earlier recorded bets, in Kick's order. Usually in one
   * statement (./bet-statement); when that finds another transaction in its way or earlier bets to
   * take first, the general way (./bet-order), which waits its turn.
   */
  async betInOrder(
    user: Bettor,
    bet: { option: number; cents: bigint },
    message: BetMessage,
    once: OnceGuard,
  ): Promise<OrderedBet> {
    const now = this.app.clock.now();
    if (!user.excluded) {
      const outcome = await betInOneStatement(this.app.database, user, bet, message, now);
      if (outcome !== 'contended') {
        this.betPaths.oneStatement += 1;
        if (outcome.ok) this.broadcaster.changed();
        return { outcome, earlier: [] };
      }
    }
    this.betPaths.general += 1;
    return placeBetInOrder(this.app.db, user, bet, message, once, () => this.broadcaster.changed(), now);
  }
}
