/**
 * The bonus hunt (docs/features/bonus-hunt.md): one running hunt at a time, its bonuses opened one by one, and the
 * `!guess` round with its point prize. Every change locks the hunt's row, commits, and only then
 * broadcasts the new state on the public `/BonusHunt` hub (guesses coalesced to a few a second).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { closestGuessIndex, guessListHash } from '@kickback/common/hunt/guesses';
import { huntTexts, type HuntList } from '@kickback/common/http/hunt';
import { bonusHuntHub, type HuntGuessView, type HuntView } from '@kickback/common/hubs/hunt';
import { centsToText, decimalToNumber, toCents } from '@kickback/common/money';
import type { Tx } from '../../db/client';
import { huntBonuses, huntGuesses, hunts } from '../../db/schema/hunt';
import type { UserRow } from '../../db/schema/users';
import { transactionThen, type AfterCommit } from '../../lib/after-commit';
import { isUniqueViolation } from '../../lib/db-errors';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { actorOf, recordAudit } from '../audit/service';
import type { LinkedChatter } from '../chat/service';
import { payPrizes } from '../staff-prizes/service';
import { multiplierX } from '@kickback/common/hunt/arithmetic';
import { guessViews, huntViewOf } from './presenter';
import {
  bonusesOf,
  bumpVersion,
  currentHuntRecord,
  finishedHuntRecords,
  guessesOf,
  huntRecord,
  lockHunt,
  lockRunningHunt,
} from './repository';

/** Every `/BonusHunt` socket is in this room. */
export const HUNT_ROOM = 'bonus-hunt';
const PAST_HUNTS = 20;
const GUESS_BROADCAST_MS = 250;

export type GuessOutcome =
  { ok: true; amountCents: bigint; replaced: boolean } | { ok: false; reason: 'no_hunt' | 'closed' | 'repeated' };

export interface HuntHooks {
  /** In the finishing transaction, right after the hunt's row was read. Tests race here. */
  afterFinishLock?(tx: Tx): Promise<void>;
}

/** A bonus just opened, told to the listeners inside the opening transaction (under the hunt's lock). */
export interface BonusOpened {
  huntId: string;
  huntName: string;
  bonusId: number;
  /** payout ÷ bet in hundredths of x, half up (the figure the hunt shows). */
  multiplierX: bigint;
  /** Whoever opened it (a Moderator or an Admin). */
  runner: UserRow;
  /** Who created the hunt (null when unknown): one of those who run a payout it triggers. */
  huntCreatedBy: string | null;
}

export type BonusOpenedListener = (tx: Tx, opened: BonusOpened, after: AfterCommit) => Promise<void>;

/** A bonus another module puts in the running hunt (a slot call), with who called it. */
export interface CalledBonus {
  slot: string;
  provider: string;
  bet: number;
  cost: number;
  calledBy: string;
}

class Refused extends Error {
  constructor(readonly outcome: GuessOutcome) {
    super('refused');
  }
}

export class HuntService {
  readonly hooks: HuntHooks = {};
  private readonly openedListeners: BonusOpenedListener[] = [];
  private guessTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly app: FastifyInstance) {}

  private now(): Date {
    return this.app.clock.now();
  }

  stop(): void {
    this.stopped = true;
    if (this.guessTimer) clearTimeout(this.guessTimer);
    this.guessTimer = null;
  }

  // ------------------------------------------------------------------ reads

  private async view(huntId: string): Promise<HuntView> {
    const record = await huntRecord(this.app.db, huntId);
    if (!record) throw notFound(huntTexts.notFound);
    const revealed = record.hunt.status === 'finished' ? await guessesOf(this.app.db, huntId) : null;
    return huntViewOf(record, revealed, this.now());
  }

  /** The running hunt, else the last finished one; null before the first. */
  async state(): Promise<HuntView | null> {
    const record = await currentHuntRecord(this.app.db);
    if (!record) return null;
    const revealed = record.hunt.status === 'finished' ? await guessesOf(this.app.db, record.hunt.id) : null;
    return huntViewOf(record, revealed, this.now());
  }

  async list(): Promise<HuntList> {
    const current = await this.state();
    const past = await finishedHuntRecords(this.app.db, PAST_HUNTS);
    const now = this.now();
    return {
      current: current?.status === 'running' ? current : null,
      past: await Promise.all(past.map(async (r) => huntViewOf(r, await guessesOf(this.app.db, r.hunt.id), now))),
    };
  }

  /** The current hunt's guesses in guessing order (for the runners). */
  async guesses(): Promise<HuntGuessView[]> {
    const record = await currentHuntRecord(this.app.db);
    return record ? guessViews(await guessesOf(this.app.db, record.hunt.id)) : [];
  }

  // ------------------------------------------------------------------ changes

  /**
   * Another module follows bonuses being opened (slot calls pay their caller): the listener runs in
   * the opening transaction, so what it does commits with the payout, once.
   */
  onBonusOpened(listener: BonusOpenedListener): void {
    this.openedListeners.push(listener);
  }

  /** Runs a change of one hunt under its row lock, then broadcasts its state after commit. */
  private async change(
    runner: UserRow,
    huntId: string,
    action: string,
    fn: (tx: Tx, hunt: NonNullable<Awaited<ReturnType<typeof lockHunt>>>, after: AfterCommit) => Promise<unknown>,
  ): Promise<HuntView> {
    await transactionThen(
      this.app.db,
      async (tx, after) => {
        await this.changeIn(tx, after, runner, huntId, action, fn);
      },
      this.app.log,
    );
    return this.view(huntId);
  }

  private async changeIn<T>(
    tx: Tx,
    after: AfterCommit,
    runner: UserRow,
    huntId: string,
    action: string,
    fn: (tx: Tx, hunt: NonNullable<Awaited<ReturnType<typeof lockHunt>>>, after: AfterCommit) => Promise<T>,
  ): Promise<T> {
    const hunt = await lockHunt(tx, huntId);
    if (!hunt) throw notFound(huntTexts.notFound);
    if (hunt.status !== 'running') throw conflict(huntTexts.notRunning);
    const detail = await fn(tx, hunt, after);
    await bumpVersion(tx, huntId);
    await recordAudit(tx, actorOf(runner), { action, targetType: 'hunt', targetId: huntId, after: detail });
    after.push(() => this.broadcast(huntId));
    return detail;
  }

  /**
   * Puts a called slot in the running hunt inside the caller's transaction (the slot call is
   * marked in the same commit). Null when no hunt is running.
   */
  async addCalledBonus(
    tx: Tx,
    after: AfterCommit,
    runner: UserRow,
    bonus: CalledBonus,
  ): Promise<{ huntId: string; bonusId: number } | null> {
    const running = await lockRunningHunt(tx);
    if (!running) return null;
    const added = await this.changeIn(tx, after, runner, running.id, 'hunt.add_bonus', (inner) =>
      this.insertBonus(inner, running.id, bonus, bonus.calledBy),
    );
    return { huntId: running.id, bonusId: added.bonusId };
  }

  private async insertBonus(
    tx: Tx,
    huntId: string,
    body: { slot: string; provider: string; bet: number; cost: number },
    calledBy: string | null,
  ) {
    const [last] = await tx
      .select({ n: sql<number>`count(*)::int`, max: sql<number>`COALESCE(max(${huntBonuses.position}), 0)::int` })
      .from(huntBonuses)
      .where(eq(huntBonuses.huntId, huntId));
    if ((last?.n ?? 0) >= 500) throw conflict(huntTexts.tooManyBonuses);
    const [row] = await tx
      .insert(huntBonuses)
      .values({
        huntId,
        position: (last?.max ?? 0) + 1,
        slot: body.slot,
        provider: body.provider,
        bet: centsToText(toCents(body.bet)),
        cost: centsToText(toCents(body.cost)),
        calledBy,
      })
      .returning({ id: huntBonuses.id });
    return { ...body, calledBy, bonusId: row!.id };
  }

  async start(runner: UserRow, body: { name: string; startCost: number; guessPrize: number }): Promise<HuntView> {
    try {
      const id = await transactionThen(
        this.app.db,
        async (tx, after) => {
          const [row] = await tx
            .insert(hunts)
            .values({
              name: body.name,
              startCost: centsToText(toCents(body.startCost)),
              guessPrize: centsToText(toCents(body.guessPrize)),
              createdBy: runner.id,
              createdAt: this.now(),
            })
            .returning({ id: hunts.id });
          await recordAudit(tx, actorOf(runner), {
            action: 'hunt.start',
            targetType: 'hunt',
            targetId: row!.id,
            after: body,
          });
          after.push(() => this.broadcast(row!.id));
          return row!.id;
        },
        this.app.log,
      );
      return this.view(id);
    } catch (err) {
      if (isUniqueViolation(err, 'hunts_one_running')) throw conflict(huntTexts.alreadyRunning);
      throw err;
    }
  }

  async addBonus(
    runner: UserRow,
    huntId: string,
    body: { slot: string; provider: string; bet: number; cost: number },
  ): Promise<HuntView> {
    return this.change(runner, huntId, 'hunt.add_bonus', async (tx) => {
      await this.insertBonus(tx, huntId, body, null);
      return body;
    });
  }

  /**
   * Opens a bonus with its payout. If guessing is still open, opening the first bonus closes it in
   * the same transaction (and publishes the hash): no guess can be made once a payout is known.
   */
  async openBonus(runner: UserRow, huntId: string, bonusId: string, payout: number): Promise<HuntView> {
    return this.change(runner, huntId, 'hunt.open_bonus', async (tx, hunt, after) => {
      const [bonus] = await tx
        .select()
        .from(huntBonuses)
        .where(and(eq(huntBonuses.id, Number(bonusId)), eq(huntBonuses.huntId, huntId)));
      if (!bonus) throw notFound(huntTexts.bonusNotFound);
      if (bonus.payout !== null) throw conflict(huntTexts.alreadyOpened);
      if (hunt.guessing === 'open') await this.closeGuessingIn(tx, huntId);
      await tx
        .update(huntBonuses)
        .set({ payout: centsToText(toCents(payout)), openedAt: this.now() })
        .where(eq(huntBonuses.id, bonus.id));
      const opened: BonusOpened = {
        huntId,
        huntName: hunt.name,
        bonusId: bonus.id,
        multiplierX: multiplierX(toCents(payout), toCents(decimalToNumber(bonus.bet))),
        runner,
        huntCreatedBy: hunt.createdBy,
      };
      for (const listener of this.openedListeners) await listener(tx, opened, after);
      return { bonusId, slot: bonus.slot, payout };
    });
  }

  async closeGuessing(runner: UserRow, huntId: string): Promise<HuntView> {
    return this.change(runner, huntId, 'hunt.close_guessing', async (tx, hunt) => {
      if (hunt.guessing !== 'open') throw conflict(huntTexts.guessingNotOpen);
      return { hash: await this.closeGuessingIn(tx, huntId) };
    });
  }

  /** Closes guessing on a locked hunt: the list is final, its hash published. */
  private async closeGuessingIn(tx: Tx, huntId: string): Promise<string> {
    const hash = await guessListHash(guessViews(await guessesOf(tx, huntId)));
    await tx
      .update(hunts)
      .set({ guessing: 'closed', guessingClosedAt: this.now(), guessesHash: hash })
      .where(eq(hunts.id, huntId));
    return hash;
  }

  /**
   * Ends the hunt once every bonus is opened: the closest guess to the amount won (ties: the
   * earliest) gets the prize (through the ledger, or held back by the staff prize limits), in the same transaction that marks the hunt
   * finished — the row lock and the status check make a second request a 409, never a second prize.
   */
  async finish(runner: UserRow, huntId: string): Promise<HuntView> {
    return this.change(runner, huntId, 'hunt.finish', async (tx, hunt) => {
      await this.hooks.afterFinishLock?.(tx);
      const bonuses = await bonusesOf(tx, huntId);
      if (bonuses.length === 0) throw conflict(huntTexts.nothingToFinish);
      if (bonuses.some((b) => b.payout === null)) throw conflict(huntTexts.unopenedLeft);
      const won = bonuses.reduce((sum, b) => sum + toCents(decimalToNumber(b.payout!)), 0n);
      const guesses = await guessesOf(tx, huntId);
      const winner =
        guesses[
          closestGuessIndex(
            guesses.map((g) => toCents(decimalToNumber(g.amount))),
            won,
          )
        ];
      let ledgerId: number | null = null;
      const prize = toCents(decimalToNumber(hunt.guessPrize));
      if (winner && prize > 0n) {
        // Within the staff prize limits when a Moderator created or finishes the hunt
        // (../staff-prizes): above them, or to a staff account, it waits for an Admin in Fulfilment.
        const [paid] = await payPrizes(
          tx,
          {
            label: `Bonus hunt "${hunt.name}"`,
            target: { type: 'hunt', id: huntId },
            actor: actorOf(runner),
            runBy: [hunt.createdBy, runner.id],
          },
          [{ userId: winner.userId, cents: prize, reason: 'hunt_prize', reference: huntId, memo: hunt.name }],
          this.now(),
        );
        ledgerId = paid?.kind === 'paid' ? paid.result.ledgerId : null;
      }
      const hash = hunt.guessing === 'open' ? await this.closeGuessingIn(tx, huntId) : hunt.guessesHash;
      await tx
        .update(hunts)
        .set({
          status: 'finished',
          finishedAt: this.now(),
          winnerUserId: winner?.userId ?? null,
          winnerKickUsername: winner?.kickUsername ?? null,
          winnerAmount: winner?.amount ?? null,
          prizeLedgerId: ledgerId,
        })
        .where(eq(hunts.id, huntId));
      return { won: centsToText(won), winner: winner?.kickUsername ?? null, prizeLedgerId: ledgerId, hash };
    });
  }

  /**
   * `!guess` from a linked chatter: one guess per user, a new one replacing the old (and its time)
   * while guessing is open. `once` marks the chat message handled in the same transaction.
   */
  async guess(user: LinkedChatter, amountCents: bigint, once: (tx: Tx) => Promise<boolean>): Promise<GuessOutcome> {
    if (amountCents < 0n) throw badRequest('A guess cannot be negative.');
    try {
      const outcome = await transactionThen(this.app.db, async (tx) => {
        const hunt = await lockRunningHunt(tx);
        if (!hunt) throw new Refused({ ok: false, reason: 'no_hunt' });
        if (hunt.guessing !== 'open') throw new Refused({ ok: false, reason: 'closed' });
        if (!(await once(tx))) throw new Refused({ ok: false, reason: 'repeated' });
        const values = {
          huntId: hunt.id,
          userId: user.id,
          kickUsername: user.kickUsername ?? user.username,
          amount: centsToText(amountCents),
          guessedAt: this.now(),
          seq: sql<number>`nextval('hunt_guess_seq')`,
        };
        const [row] = await tx
          .insert(huntGuesses)
          .values(values)
          .onConflictDoUpdate({
            target: [huntGuesses.huntId, huntGuesses.userId],
            set: {
              amount: values.amount,
              kickUsername: values.kickUsername,
              guessedAt: values.guessedAt,
              seq: values.seq,
            },
          })
          .returning({ inserted: sql<boolean>`(xmax = 0)` });
        await bumpVersion(tx, hunt.id);
        return { ok: true as const, amountCents, replaced: row?.inserted === false, huntId: hunt.id };
      });
      this.guessed(outcome.huntId);
      return { ok: true, amountCents: outcome.amountCents, replaced: outcome.replaced };
    } catch (err) {
      if (err instanceof Refused) return err.outcome;
      throw err;
    }
  }

  // ------------------------------------------------------------------ broadcasts (after commit)

  private async broadcast(huntId: string): Promise<void> {
    this.app.realtime.emit(bonusHuntHub, HUNT_ROOM, 'ReceiveState', await this.view(huntId));
  }

  /** A guess committed: one state within the interval for any number of guesses. */
  private guessed(huntId: string): void {
    if (this.guessTimer || this.stopped) return;
    this.guessTimer = setTimeout(() => {
      this.guessTimer = null;
      void this.broadcast(huntId).catch((err: unknown) => this.app.log.error({ err }, 'hunt broadcast failed'));
    }, GUESS_BROADCAST_MS);
    this.guessTimer.unref();
  }
}
