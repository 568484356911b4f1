/**
 * Slot calls (docs/features/slot-calls.md): viewers call slots from chat (`!sr`, `!call`), the
 * streamer's team runs the queue — open and close, mark played, skip, remove, clear, a provably
 * fair random pick, "Add to hunt" — and a caller whose slot, opened in the hunt, paid at least the
 * multiplier set gets the payout once. Every change of the queue locks the settings row, commits,
 * and only then broadcasts the new state on the public `/SlotCalls` hub.
 *
 * For other modules: `openCallOf(kickUserId)` (a viewer's call still in the queue).
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { drawFromPrepared, prepareSnapshot, type DrawEntry } from '@kickback/common/giveaway/draw';
import type { RollRecord } from '@kickback/common/http/giveaway';
import {
  slotCallTexts,
  type AddToHuntBody,
  type CatalogueSlotBody,
  type SlotCallRulesBody,
} from '@kickback/common/http/slot-calls';
import { slotCallsHub, type SlotCallsState, type SlotCallView } from '@kickback/common/hubs/slot-calls';
import { slotCatalogue as shippedCatalogue } from '@kickback/common/slot-calls/catalogue';
import { slotKey } from '@kickback/common/slot-calls/match';
import { centsToText, formatAmount, toCents } from '@kickback/common/money';
import type { Tx } from '../../db/client';
import { isUniqueViolation } from '../../lib/db-errors';
import {
  slotCallPicks,
  slotCalls,
  slotCallSettings,
  slotCatalogue,
  type SlotCallRow,
  type SlotCallSettingsRow,
} from '../../db/schema/slot-calls';
import type { UserRow } from '../../db/schema/users';
import { transactionThen, type AfterCommit } from '../../lib/after-commit';
import { newSeed, nodeDrawCrypto } from '../../lib/draw-crypto';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { actorOf, recordAudit, type Actor } from '../audit/service';
import { applyBalanceChange } from '../ledger/service';
import type { BonusOpened } from '../hunt/service';
import { payPrizes } from '../staff-prizes/service';
import { CallRefused, lockSettings, makeCall, type CallHooks, type CallRequest } from './calls';
import { addedSlots, isShipped } from './catalogue';
import { callView, rulesView } from './presenter';

export { CallRefused } from './calls';
export type { CallRequest } from './calls';

/** Every `/SlotCalls` socket is in this room. */
export const SLOT_CALLS_ROOM = 'slot-calls';
const RECENT = 20;
const WAITING = ['queued', 'playing'] as const;

export type CallOutcome =
  { ok: true; call: SlotCallView } | { ok: false; reason: string } | { ok: false; repeated: true };

export interface SlotCallHooks extends CallHooks {
  /** In a refund, right before the call's refund is claimed. Tests race here. */
  beforeRefund?(tx: Tx): Promise<void>;
}

export class SlotCallService {
  readonly hooks: SlotCallHooks = {};

  constructor(private readonly app: FastifyInstance) {}

  private now(): Date {
    return this.app.clock.now();
  }

  // ------------------------------------------------------------------ reads

  async state(): Promise<SlotCallsState> {
    const [settings] = await this.app.db.select().from(slotCallSettings).where(eq(slotCallSettings.id, 1));
    const waiting = await this.app.db
      .select()
      .from(slotCalls)
      .where(inArray(slotCalls.status, WAITING))
      .orderBy(sql`${slotCalls.status} = 'playing' DESC`, asc(slotCalls.id));
    const recent = await this.app.db
      .select()
      .from(slotCalls)
      .where(isNotNull(slotCalls.resolvedAt))
      .orderBy(desc(slotCalls.resolvedAt), desc(slotCalls.id))
      .limit(RECENT);
    const [pick] = await this.app.db
      .select({
        id: slotCallPicks.id,
        callId: slotCallPicks.callId,
        pickedAt: slotCallPicks.pickedAt,
        snapshot: slotCallPicks.snapshot,
        slot: slotCalls.slot,
        caller: slotCalls.kickUsername,
      })
      .from(slotCallPicks)
      .innerJoin(slotCalls, eq(slotCalls.id, slotCallPicks.callId))
      .orderBy(desc(slotCallPicks.id))
      .limit(1);
    const queue = waiting.map(callView);
    return {
      id: 'slot-calls',
      version: settings!.version,
      phaseEndsAt: null,
      serverTime: this.now().toISOString(),
      open: settings!.isOpen,
      rules: rulesView(settings!),
      nextUp: queue[0] ?? null,
      queue,
      recent: recent.map(callView),
      nextSeedHash: settings!.seedHash,
      lastPick: pick
        ? {
            id: String(pick.id),
            callId: String(pick.callId),
            slot: pick.slot,
            caller: pick.caller,
            pickedAt: pick.pickedAt.toISOString(),
            among: (JSON.parse(pick.snapshot) as unknown[]).length,
          }
        : null,
    };
  }

  /**
   * A viewer's call still waiting in the queue (the one being played first), or null: by site
   * account (a battle entrant is assigned the slot of their call) or by Kick account.
   */
  async openCallOf(who: { userId: string } | { kickUserId: string }): Promise<SlotCallView | null> {
    const whose = 'userId' in who ? eq(slotCalls.userId, who.userId) : eq(slotCalls.kickUserId, who.kickUserId);
    const [row] = await this.app.db
      .select()
      .from(slotCalls)
      .where(and(whose, inArray(slotCalls.status, WAITING)))
      .orderBy(sql`${slotCalls.status} = 'playing' DESC`, asc(slotCalls.id))
      .limit(1);
    return row ? callView(row) : null;
  }

  /** The public record of a random pick, for the verify page. */
  async pickRecord(id: string): Promise<RollRecord> {
    const [pick] = await this.app.db
      .select()
      .from(slotCallPicks)
      .where(eq(slotCallPicks.id, Number(id)));
    if (!pick) throw notFound(slotCallTexts.pickNotFound);
    const snapshot = JSON.parse(pick.snapshot) as DrawEntry[];
    const winner = String(pick.callId);
    return {
      rollId: String(pick.id),
      committedAt: pick.committedAt.toISOString(),
      rolledAt: pick.pickedAt.toISOString(),
      seedHash: pick.seedHash,
      serverSeed: pick.serverSeed,
      snapshotHash: pick.snapshotHash,
      snapshot,
      winnersWanted: 1,
      winners: [winner],
      winnerNames: [snapshot.find((e) => e.kickUserId === winner)?.username ?? winner],
    };
  }

  async catalogue() {
    const added = await addedSlots(this.app.db);
    return {
      added: added.map((a) => ({ name: a.name, provider: a.provider, addedAt: a.addedAt.toISOString() })),
      shipped: shippedCatalogue.length,
    };
  }

  // ------------------------------------------------------------------ calls from chat

  /** `!sr <slot>` / `!call <slot>`; `once` marks the chat message handled in the call's transaction. */
  async call(request: CallRequest, once: (tx: Tx) => Promise<boolean>): Promise<CallOutcome> {
    try {
      const row = await transactionThen(
        this.app.db,
        async (tx, after) => {
          const made = await makeCall(tx, request, this.now(), once, this.hooks);
          if (made) after.push(() => this.broadcast());
          return made;
        },
        this.app.log,
      );
      return row ? { ok: true, call: callView(row) } : { ok: false, repeated: true };
    } catch (err) {
      if (err instanceof CallRefused) return { ok: false, reason: err.reason };
      throw err;
    }
  }

  // ------------------------------------------------------------------ running the queue

  /** Runs a change of the queue under the settings row's lock, audits it, broadcasts after commit. */
  private async change<T>(
    actor: Actor,
    action: string,
    fn: (tx: Tx, settings: SlotCallSettingsRow, after: AfterCommit) => Promise<T>,
  ): Promise<T> {
    return transactionThen(
      this.app.db,
      async (tx, after) => {
        const settings = await lockSettings(tx);
        const detail = await fn(tx, settings, after);
        await tx
          .update(slotCallSettings)
          .set({ version: sql`${slotCallSettings.version} + 1`, updatedAt: this.now() })
          .where(eq(slotCallSettings.id, 1));
        await recordAudit(tx, actor, { action, targetType: 'slot_calls', after: detail });
        after.push(() => this.broadcast());
        return detail;
      },
      this.app.log,
    );
  }

  private async withState(message: string) {
    return { state: await this.state(), message };
  }

  /** Opens (true) or closes the queue; a seed for the next pick is committed at the opening. */
  async setOpen(actor: Actor, open: boolean): Promise<{ state: SlotCallsState; message: string }> {
    await this.change(actor, open ? 'slot_calls.open' : 'slot_calls.close', async (tx, settings) => {
      if (settings.isOpen === open) throw conflict(open ? slotCallTexts.alreadyOpen : slotCallTexts.alreadyClosed);
      await tx
        .update(slotCallSettings)
        .set({ isOpen: open, ...(open && !settings.seedHash ? this.seedColumns() : {}) })
        .where(eq(slotCallSettings.id, 1));
      return { open };
    });
    return this.withState(open ? 'Slot calls are open.' : 'Slot calls are closed.');
  }

  private seedColumns() {
    const { serverSeed, seedHash } = newSeed();
    return { serverSeed, seedHash, seedCommittedAt: this.now() };
  }

  async setRules(runner: UserRow, body: SlotCallRulesBody) {
    await this.change(actorOf(runner), 'slot_calls.rules', async (tx) => {
      const blacklist = [...new Map(body.blacklist.map((b) => [slotKey(b), b.trim()])).values()].filter(
        (b) => slotKey(b) !== '',
      );
      await tx
        .update(slotCallSettings)
        .set({
          maxPerViewer: body.maxPerViewer,
          cooldownSeconds: body.cooldownSeconds,
          cost: centsToText(toCents(body.cost)),
          linkedOnly: body.linkedOnly,
          subsOnly: body.subsOnly,
          maxQueue: body.maxQueue,
          unknownSlots: body.unknownSlots,
          blacklist,
          payoutMultiplier: centsToText(toCents(body.payoutMultiplier)),
          payoutPoints: centsToText(toCents(body.payoutPoints)),
        })
        .where(eq(slotCallSettings.id, 1));
      return { ...body, blacklist };
    });
    return this.withState('Rules saved.');
  }

  /** The call, locked; 404 when unknown, 409 when it already left the queue. */
  private async lockWaiting(tx: Tx, id: string): Promise<SlotCallRow> {
    const [row] = await tx
      .select()
      .from(slotCalls)
      .where(eq(slotCalls.id, Number(id)))
      .for('update');
    if (!row) throw notFound(slotCallTexts.notFound);
    if (row.status !== 'queued' && row.status !== 'playing') throw conflict(slotCallTexts.notInQueue);
    return row;
  }

  /**
   * Refunds an unplayed call's cost, once: the claim (`refunded_at` set only where it is still
   * null) is what makes a second refund of the same call pay nothing.
   */
  private async refund(tx: Tx, callId: number): Promise<boolean> {
    await this.hooks.beforeRefund?.(tx);
    const [claimed] = await tx
      .update(slotCalls)
      .set({ refundedAt: this.now() })
      .where(
        and(
          eq(slotCalls.id, callId),
          isNull(slotCalls.refundedAt),
          isNotNull(slotCalls.userId),
          sql`${slotCalls.cost} > 0`,
        ),
      )
      .returning({ userId: slotCalls.userId, cost: slotCalls.cost, slot: slotCalls.slot });
    if (!claimed) return false;
    await applyBalanceChange(tx, {
      userId: claimed.userId!,
      currency: 'points',
      delta: claimed.cost,
      reason: 'slot_call_refund',
      reference: String(callId),
      memo: claimed.slot,
    });
    return true;
  }

  /** Played, skipped or removed; the last two refund the cost. */
  async resolve(runner: UserRow, id: string, outcome: 'played' | 'skipped' | 'removed') {
    const call = await this.change(actorOf(runner), `slot_calls.${outcome}`, async (tx) => {
      const row = await this.lockWaiting(tx, id);
      await tx.update(slotCalls).set({ status: outcome, resolvedAt: this.now() }).where(eq(slotCalls.id, row.id));
      const refunded = outcome === 'played' ? false : await this.refund(tx, row.id);
      return { callId: id, slot: row.slot, caller: row.kickUsername, refunded };
    });
    const verb = { played: 'marked played', skipped: 'skipped', removed: 'removed' }[outcome];
    return this.withState(`${call.slot} (${call.caller}) ${verb}${call.refunded ? ', cost refunded' : ''}.`);
  }

  /** Every waiting call leaves the queue unplayed; each paid one is refunded once. */
  async clear(runner: UserRow) {
    const cleared = await this.change(actorOf(runner), 'slot_calls.clear', async (tx) => {
      const rows = await tx
        .update(slotCalls)
        .set({ status: 'cleared', resolvedAt: this.now() })
        .where(inArray(slotCalls.status, WAITING))
        .returning({ id: slotCalls.id });
      let refunds = 0;
      for (const row of rows) if (await this.refund(tx, row.id)) refunds++;
      return { cleared: rows.length, refunds };
    });
    return this.withState(`Queue cleared: ${cleared.cleared} calls, ${cleared.refunds} refunded.`);
  }

  /**
   * A random call from those queued, by the giveaway's draw (common/giveaway/draw.ts) under the
   * seed committed before: it becomes the one being played, the seed is revealed in the pick's
   * record and a new one committed for the next pick.
   */
  async pick(runner: UserRow) {
    const picked = await this.change(actorOf(runner), 'slot_calls.pick', async (tx, settings) => {
      const queued = await tx.select().from(slotCalls).where(eq(slotCalls.status, 'queued')).orderBy(asc(slotCalls.id));
      if (queued.length === 0) throw conflict(slotCallTexts.emptyQueue);
      if (!settings.serverSeed || !settings.seedHash || !settings.seedCommittedAt) {
        throw conflict('No pick seed was published yet: open the queue first.');
      }
      const prepared = await prepareSnapshot(
        nodeDrawCrypto,
        queued.map((c) => ({ kickUserId: String(c.id), username: `${c.kickUsername}: ${c.slot}`, weight: 1 })),
      );
      const [winnerId] = await drawFromPrepared(nodeDrawCrypto, settings.serverSeed, prepared, 1);
      const winner = queued.find((c) => String(c.id) === winnerId)!;
      await tx.update(slotCalls).set({ status: 'queued' }).where(eq(slotCalls.status, 'playing'));
      await tx.update(slotCalls).set({ status: 'playing' }).where(eq(slotCalls.id, winner.id));
      const [pick] = await tx
        .insert(slotCallPicks)
        .values({
          callId: winner.id,
          seedHash: settings.seedHash,
          serverSeed: settings.serverSeed,
          committedAt: settings.seedCommittedAt,
          snapshot: prepared.text,
          snapshotHash: prepared.hash,
          pickedBy: runner.id,
          pickedAt: this.now(),
        })
        .returning({ id: slotCallPicks.id });
      await tx.update(slotCallSettings).set(this.seedColumns()).where(eq(slotCallSettings.id, 1));
      return {
        pickId: pick!.id,
        callId: winner.id,
        slot: winner.slot,
        caller: winner.kickUsername,
        among: queued.length,
      };
    });
    return this.withState(`Picked ${picked.slot} (${picked.caller}) from ${picked.among} calls.`);
  }

  /** Puts the call's slot in the running hunt with its caller; the call leaves the queue as played. */
  async addToHunt(runner: UserRow, id: string, body: AddToHuntBody) {
    const added = await this.change(actorOf(runner), 'slot_calls.add_to_hunt', async (tx, _settings, after) => {
      const row = await this.lockWaiting(tx, id);
      const bonus = await this.app.hunt.addCalledBonus(tx, after, runner, {
        slot: row.slot,
        provider: row.provider ?? '',
        bet: Number(body.bet),
        cost: Number(body.cost ?? 0),
        calledBy: row.kickUsername,
      });
      if (!bonus) throw conflict(slotCallTexts.noHunt);
      await tx
        .update(slotCalls)
        .set({ status: 'hunted', huntBonusId: bonus.bonusId, huntedBy: runner.id, resolvedAt: this.now() })
        .where(eq(slotCalls.id, row.id));
      return { callId: id, slot: row.slot, caller: row.kickUsername, ...bonus };
    });
    return this.withState(`${added.slot} (${added.caller}) is in the hunt.`);
  }

  /**
   * A hunt bonus was opened (the hunt's transaction, under its lock): the call it came from records
   * the multiplier, and its caller gets the payout when it reached the multiplier set — once, as
   * the claim (`paid_at` set only where null) and the hunt's "already opened" check both ensure.
   * The payout is a prize of an event staff run: it goes through the staff-prize gate, run by the
   * hunt's creator, whoever put the call in the hunt and whoever opened the bonus (the amount is
   * an Admin's rule). When one of them is not an Admin, a staff caller's payout, or one over the
   * limits, waits for an Admin in Fulfilment (docs/features/staff-prize-limits.md#which-events-count).
   */
  async bonusOpened(tx: Tx, opened: BonusOpened, after: AfterCommit): Promise<void> {
    const [call] = await tx.select().from(slotCalls).where(eq(slotCalls.huntBonusId, opened.bonusId));
    if (!call) return;
    await tx
      .update(slotCalls)
      .set({ multiplier: centsToText(opened.multiplierX) })
      .where(eq(slotCalls.id, call.id));
    after.push(() => this.broadcast());
    const [settings] = await tx.select().from(slotCallSettings).where(eq(slotCallSettings.id, 1));
    const points = toCents(settings!.payoutPoints);
    if (points <= 0n || !call.userId || opened.multiplierX < toCents(settings!.payoutMultiplier)) return;
    const [claimed] = await tx
      .update(slotCalls)
      .set({ paidAt: this.now(), payout: centsToText(points) })
      .where(and(eq(slotCalls.id, call.id), isNull(slotCalls.paidAt)))
      .returning({ id: slotCalls.id });
    if (!claimed) return;
    const [outcome] = await payPrizes(
      tx,
      {
        label: `Slot call ${call.id} (${call.slot}) in bonus hunt "${opened.huntName}"`,
        target: { type: 'slot_call', id: String(call.id) },
        actor: actorOf(opened.runner),
        runBy: [opened.huntCreatedBy, call.huntedBy, opened.runner.id],
      },
      [
        {
          userId: call.userId,
          cents: points,
          reason: 'slot_call_payout',
          reference: String(call.id),
          memo: `${call.slot} paid ${formatAmount(centsToText(opened.multiplierX))}x`,
        },
      ],
      this.now(),
    );
    if (outcome?.kind === 'skipped') {
      await tx.update(slotCalls).set({ paidAt: null, payout: null }).where(eq(slotCalls.id, call.id));
    }
  }

  async addToCatalogue(runner: UserRow, body: CatalogueSlotBody) {
    const name = body.name.trim();
    const key = slotKey(name);
    if (key === '') throw badRequest('The slot needs letters or digits.', 'name');
    if (isShipped(name)) throw conflict(slotCallTexts.catalogueTaken, 'name');
    try {
      await transactionThen(this.app.db, async (tx) => {
        await tx
          .insert(slotCatalogue)
          .values({ name, provider: body.provider.trim(), slotKey: key, addedBy: runner.id, addedAt: this.now() });
        await recordAudit(tx, actorOf(runner), { action: 'slot_calls.catalogue_add', after: body });
      });
    } catch (err) {
      if (isUniqueViolation(err, 'slot_catalogue_key')) throw conflict(slotCallTexts.catalogueTaken, 'name');
      throw err;
    }
    return this.catalogue();
  }

  // ------------------------------------------------------------------ broadcasts (after commit)

  private async broadcast(): Promise<void> {
    this.app.realtime.emit(slotCallsHub, SLOT_CALLS_ROOM, 'ReceiveState', await this.state());
  }
}
