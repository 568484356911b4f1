/**
 * The chat giveaway (docs/features/giveaway.md#entering-and-the-roll): entries from chat keys,
 * settings and keys, provably fair rolls with point prizes through the ledger, the recent winners
 * line and the winners' chat messages. Every change is a row in PostgreSQL and every broadcast goes
 * out after commit through the hub layer's audiences (the admins; the public overlay room), so
 * several processes serve one giveaway. This file is the module's public surface.
 */
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { drawFromPrepared } from '@kickback/common/giveaway/draw';
import { giveawayErrors } from '@kickback/common/giveaway/texts';
import {
  giveawayHub,
  KEY_MAX_LENGTH,
  type GiveawayKey,
  type GiveawayParticipant,
  type GiveawayRoll,
  type GiveawaySettings,
  type GiveawaySettingsUpdate,
  type GiveawayState,
  type WinnerMessage,
} from '@kickback/common/hubs/giveaway';
import {
  giveawayOverlayHub,
  type OverlayName,
  type OverlayRoll,
  type OverlayState,
} from '@kickback/common/hubs/giveaway-overlay';
import type { RollRecord } from '@kickback/common/http/giveaway';
import { centsToText, toCents } from '@kickback/common/money';
import type { Tx } from '../../db/client';
import { chatMessages } from '../../db/schema/chat';
import { giveawayParticipants, giveawayRoundCounts, giveawaySettings, giveawayWinners } from '../../db/schema/giveaway';
import type { UserRow } from '../../db/schema/users';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import { transactionThen, type AfterCommit } from '../../lib/after-commit';
import { conflict, notFound } from '../../lib/errors';
import { actorOf, recordAudit } from '../audit/service';
import { payPrizes } from '../staff-prizes/service';
import { consumeDraw, ensureOpenDraw, findDraw, lastRoll, openDraw, rollView, winnersOf } from './draws';
import { GiveawayChatState } from './chat-state';
import { nodeDrawCrypto } from '../../lib/draw-crypto';
import { filterRefusal, linkAgeRefusal, rollRefusal, weightOf } from './eligibility';
import { GiveawayEntries } from './entries';
import {
  chatterFacts,
  drawEntryOf,
  eachRollFact,
  participantsFacts,
  reelNames,
  roundFacts,
  type Chatter,
} from './facts';
import { SnapshotBuilder } from './snapshot';
import { addKey, listKeys, readSettingsRow, setActiveKeys, settingsOf, updateSettings } from './settings';

export { SPIN_MS } from './draws';

/** The overlay's one room: every wheel on every process. */
export const OVERLAY_ROOM = 'giveaway-overlay';
const RECENT_WINNERS = 20;
const WINNER_MESSAGES = 50;
const REEL_SIZE = 100;
/** The overlay's participant count is sent at most this often per process (never per entry). */
const COUNT_EVERY_MS = 250;

export interface GiveawayHooks {
  /** In the roll's transaction, right after the settings row was read (and locked). Tests race here. */
  afterLock?(tx: Tx): Promise<void>;
}

const overlayNameOf = (p: GiveawayParticipant): OverlayName => ({
  username: p.username,
  color: p.identity.color,
  avatarUrl: p.account?.avatarUrl ?? null,
});

export class GiveawayService {
  readonly hooks: GiveawayHooks = {};
  private countTimer: NodeJS.Timeout | null = null;

  /** The active keys and the last winners, in memory (a plain chat message costs no query). */
  readonly chatState: GiveawayChatState;
  private readonly entries: GiveawayEntries;

  constructor(private readonly app: FastifyInstance) {
    this.chatState = new GiveawayChatState(app.database, () => app.clock.now().getTime());
    this.entries = new GiveawayEntries(app.database);
  }

  private now(): Date {
    return this.app.clock.now();
  }

  /** Stops the pending overlay count and writes the entries still waiting (on close). */
  async stop(): Promise<void> {
    if (this.countTimer) clearTimeout(this.countTimer);
    this.countTimer = null;
    await this.entries.drain();
  }

  // ------------------------------------------------------------------ reads

  async state(): Promise<GiveawayState> {
    const db = this.app.db;
    await ensureOpenDraw(db, this.now());
    const row = await readSettingsRow(db);
    const [draw, keys, count, roll] = await Promise.all([
      openDraw(db),
      listKeys(db),
      this.participantCount(row.roundId),
      lastRoll(db),
    ]);
    return {
      keys,
      settings: settingsOf(row),
      participantCount: count,
      nextSeedHash: draw?.seedHash ?? '',
      lastRoll: roll,
      winnerMessages: roll ? await this.winnerMessagesSince(row.lastWinnerKickIds, new Date(roll.rolledAt)) : [],
    };
  }

  /**
   * The round's participants: one row kept by the database's triggers on every insert and delete
   * (migration 0950), so this costs the same at 60,000 entries as at 1 — not a count over the round.
   */
  private async participantCount(roundId: number): Promise<number> {
    const [row] = await this.app.db
      .select({ n: giveawayRoundCounts.participants })
      .from(giveawayRoundCounts)
      .where(eq(giveawayRoundCounts.roundId, roundId));
    return row?.n ?? 0;
  }

  /** The current round's participants (the round as of this read, not as of an entry's). */
  private async currentParticipantCount(): Promise<number> {
    const [row] = await this.app.db
      .select({ n: giveawayRoundCounts.participants })
      .from(giveawaySettings)
      .innerJoin(giveawayRoundCounts, eq(giveawayRoundCounts.roundId, giveawaySettings.roundId))
      .where(eq(giveawaySettings.id, 1));
    return row?.n ?? 0;
  }

  private async winnerMessagesSince(kickIds: string[], since: Date): Promise<WinnerMessage[]> {
    if (kickIds.length === 0) return [];
    const rows = await this.app.db
      .select({ username: chatMessages.kickUsername, color: chatMessages.color, content: chatMessages.content })
      .from(chatMessages)
      .where(and(inArray(chatMessages.kickUserId, kickIds), gt(chatMessages.receivedAt, since)))
      .orderBy(asc(chatMessages.receivedAt))
      .limit(WINNER_MESSAGES);
    return rows.map((r) => ({ sender: { username: r.username, identity: { color: r.color } }, content: r.content }));
  }

  async participants(): Promise<GiveawayParticipant[]> {
    const row = await readSettingsRow(this.app.db);
    return (await roundFacts(this.app.db, row.roundId, this.now())).map((c) => c.view);
  }

  /** The recent winners line, newest first (Clear Recent Winners empties it; the cooldown still counts). */
  async latestWinners(): Promise<GiveawayParticipant[]> {
    const row = await readSettingsRow(this.app.db);
    const rows = await this.app.db
      .select({ entry: giveawayWinners.entry })
      .from(giveawayWinners)
      .where(row.recentClearedAt ? gt(giveawayWinners.wonAt, row.recentClearedAt) : undefined)
      .orderBy(desc(giveawayWinners.wonAt), asc(giveawayWinners.position))
      .limit(RECENT_WINNERS);
    return rows.map((r) => r.entry as GiveawayParticipant);
  }

  /** The public record of one roll, for the verify page. */
  async rollRecord(rollId: string): Promise<RollRecord> {
    const draw = await findDraw(this.app.db, rollId);
    if (!draw || !draw.rolledAt) throw notFound(giveawayErrors.rollNotFound);
    const winners = await winnersOf(this.app.db, draw.id);
    return {
      rollId: draw.id,
      committedAt: draw.committedAt.toISOString(),
      rolledAt: draw.rolledAt.toISOString(),
      seedHash: draw.seedHash,
      serverSeed: draw.serverSeed,
      snapshotHash: draw.snapshotHash ?? '',
      snapshot: draw.snapshot ?? [],
      winnersWanted: draw.winnersWanted ?? 1,
      winners: winners.map((w) => w.kickUserId),
      winnerNames: winners.map((w) => w.username),
    };
  }

  async overlayState(): Promise<OverlayState> {
    const row = await readSettingsRow(this.app.db);
    const roll = await lastRoll(this.app.db);
    return {
      participantCount: await this.participantCount(row.roundId),
      lastRoll: roll ? overlayRollOf(roll, roll.winners.map(overlayNameOf)) : null,
    };
  }

  // ------------------------------------------------------------------ admin changes

  async updateSettings(admin: UserRow, next: GiveawaySettingsUpdate): Promise<GiveawaySettings> {
    await transactionThen(this.app.db, (tx) => updateSettings(tx, admin, next, this.now()), this.app.log);
    await this.broadcastState();
    return settingsOf(await readSettingsRow(this.app.db));
  }

  async addKey(admin: UserRow, key: string): Promise<GiveawayKey[]> {
    await transactionThen(this.app.db, (tx) => addKey(tx, admin, key, this.now()), this.app.log);
    this.chatState.changed();
    await this.broadcastState();
    return listKeys(this.app.db);
  }

  async setKeys(admin: UserRow, keys: readonly string[]): Promise<GiveawayKey[]> {
    await transactionThen(this.app.db, (tx) => setActiveKeys(tx, admin, keys), this.app.log);
    this.chatState.changed();
    await this.broadcastState();
    return listKeys(this.app.db);
  }

  async clearParticipants(admin: UserRow): Promise<null> {
    await this.app.db.transaction(async (tx) => {
      const row = await readSettingsRow(tx, true);
      await tx
        .update(giveawaySettings)
        .set({ roundId: row.roundId + 1, updatedAt: this.now() })
        .where(eq(giveawaySettings.id, 1));
      await recordAudit(tx, actorOf(admin), {
        action: 'giveaway.participants.clear',
        targetType: 'giveaway',
        targetId: String(row.roundId),
      });
    });
    this.app.realtime.emitToAdmins(giveawayHub, 'ReceiveParticipants', []);
    this.app.realtime.emit(giveawayOverlayHub, OVERLAY_ROOM, 'ReceiveParticipantCount', 0);
    // And the count read again shortly: a count of the old round read just before this commit (here
    // or on another process) may reach the overlay after the 0; this one comes after it.
    this.overlayCountSoon();
    await this.broadcastState();
    return null;
  }

  async clearRecentWinners(admin: UserRow): Promise<null> {
    await this.app.db.transaction(async (tx) => {
      await tx.update(giveawaySettings).set({ recentClearedAt: this.now() }).where(eq(giveawaySettings.id, 1));
      await recordAudit(tx, actorOf(admin), {
        action: 'giveaway.winners.clear',
        targetType: 'giveaway',
        targetId: 'recent',
      });
    });
    this.app.realtime.emitToAdmins(giveawayHub, 'ReceiveWinners', []);
    return null;
  }

  private async broadcastState(): Promise<void> {
    this.app.realtime.emitToAdmins(giveawayHub, 'ReceiveState', await this.state());
  }

  // ------------------------------------------------------------------ the roll

  /**
   * Draws the winner(s) of the open draw from the round's eligible participants, pays the point
   * prize through the ledger, commits the next draw, then announces the roll. Rolls queue on the
   * settings row lock, so two at once consume two different draws and pay each winner once.
   *
   * Built for a round of 50,000 (docs/features/giveaway.md): the facts of the whole round arrive as one aggregated
   * value, the snapshot's text is copied from the stored draw entries (./snapshot: no JSON round
   * trip, the same bytes as the documented procedure), hashed once and stored compressed, only the
   * winners' and the overlay reel's entries are read in full, and the reply does not wait for the
   * recent-winners line and the state broadcast (they follow it).
   */
  async roll(admin: UserRow): Promise<GiveawayRoll> {
    let now = this.now();
    return transactionThen(
      this.app.db,
      async (tx, after) => {
        const row = await readSettingsRow(tx, true);
        await this.hooks.afterLock?.(tx);
        // The time of the roll is once the lock is held: a roll that queued behind another must not
        // be dated before the seed that other roll committed for it.
        now = this.now();
        await ensureOpenDraw(tx, now);
        const draw = await openDraw(tx, true);
        if (!draw) throw new Error('no open giveaway draw');
        const settings = settingsOf(row);
        const eligible = new SnapshotBuilder();
        const participants = await eachRollFact(tx, row.roundId, settings, now, (entry, facts) => {
          if (rollRefusal(settings, facts, now) === null) eligible.add(entry, weightOf(settings, facts));
        });
        if (participants === 0) throw conflict(giveawayErrors.noParticipants);
        if (eligible.size === 0) throw conflict(giveawayErrors.noEligible);

        const snapshot = await eligible.prepare();
        const winnerIds = await drawFromPrepared(nodeDrawCrypto, draw.serverSeed, snapshot, settings.winnersPerRoll);
        const prizePoints = centsToText(toCents(settings.prizePoints));
        const consumed = await consumeDraw(tx, draw.id, now, {
          snapshot,
          winnersWanted: settings.winnersPerRoll,
          prizePoints,
          rolledBy: admin.id,
          roundId: row.roundId,
        });
        if (!consumed) throw conflict('Another roll used this draw. Roll again.');

        const byId = new Map(
          (await participantsFacts(tx, row.roundId, winnerIds, now)).map((c) => [c.candidate.kickUserId, c]),
        );
        const winners = winnerIds.map((id) => byId.get(id)!);
        // The prize is paid within the staff prize limits when a Moderator set it or rolls
        // (../staff-prizes): above them, or to a staff account, it waits for an Admin in Fulfilment.
        const prizeCents = toCents(prizePoints);
        const outcomes = await payPrizes(
          tx,
          {
            label: `Giveaway roll ${draw.id}`,
            target: { type: 'giveaway_roll', id: String(draw.id) },
            actor: actorOf(admin),
            runBy: [admin.id, row.updatedBy],
          },
          winners.flatMap((w) =>
            w.userId && prizeCents > 0n
              ? [
                  {
                    userId: w.userId,
                    cents: prizeCents,
                    reason: 'giveaway_win' as const,
                    reference: `giveaway:${draw.id}:${w.candidate.kickUserId}`,
                  },
                ]
              : [],
          ),
          now,
        );
        const paidTo = new Map<string, number>();
        for (const outcome of outcomes) {
          if (outcome.kind === 'paid') paidTo.set(outcome.reference, outcome.result.ledgerId);
        }
        for (const [position, w] of winners.entries()) {
          await tx.insert(giveawayWinners).values({
            drawId: draw.id,
            position,
            kickUserId: w.candidate.kickUserId,
            userId: w.userId,
            wonAt: now,
            entry: w.view,
            prizeLedgerId: paidTo.get(`giveaway:${draw.id}:${w.candidate.kickUserId}`) ?? null,
          });
        }
        await ensureOpenDraw(tx, now);
        await tx
          .update(giveawaySettings)
          .set({ lastRollId: draw.id, lastWinnerKickIds: winnerIds, updatedAt: now })
          .where(eq(giveawaySettings.id, 1));
        const { hash: snapshotHash, entries: drawn } = snapshot;
        await recordAudit(tx, actorOf(admin), {
          action: 'giveaway.roll',
          targetType: 'giveaway_draw',
          targetId: draw.id,
          after: { winners: winnerIds, eligible: drawn.length, snapshotHash, prizePoints },
        });
        const roll = rollView(
          {
            ...draw,
            rolledAt: now,
            snapshotHash,
            eligibleCount: drawn.length,
            prizePoints,
            winnersWanted: settings.winnersPerRoll,
          },
          winners.map((w) => w.view),
        );
        const reel = await reelNames(
          tx,
          row.roundId,
          sample(drawn, REEL_SIZE).map((e) => e.kickUserId),
        );
        after.push(() => {
          this.chatState.changed(); // the winners whose messages stream to the admins
          this.app.realtime.emitToAdmins(giveawayHub, 'ReceiveRoll', roll);
          this.app.realtime.emit(giveawayOverlayHub, OVERLAY_ROOM, 'ReceiveRoll', overlayRollOf(roll, reel));
          this.afterRoll().catch((err: unknown) =>
            this.app.log.warn({ err }, 'giveaway broadcast after a roll failed'),
          );
        });
        return roll;
      },
      this.app.log,
    );
  }

  /** The recent winners line and the state, to every admin page (after a roll, not awaited by it). */
  private async afterRoll(): Promise<void> {
    this.app.realtime.emitToAdmins(giveawayHub, 'ReceiveWinners', await this.latestWinners());
    await this.broadcastState();
  }

  // ------------------------------------------------------------------ chat

  /** Whether a chat message may be an active key (the handler's `mayAct`); true while the keys are being read. */
  mayBeKey(message: ChatMessage): boolean {
    const text = keyTextOf(message);
    if (text === null) return false;
    const view = this.chatState.current();
    if (!(view instanceof Promise)) return view.keys.has(text);
    view.catch(() => undefined); // awaited (and reported) by enter()
    return true;
  }

  /**
   * A chat message equal (trimmed, any letter case) to an active key enters its sender into the
   * current round once. Cheap, because every chat message passes here: whether the text is a key
   * is answered from memory (./chat-state), so a plain message costs no query; a key goes to ONE
   * batched statement (./entries) that checks the key again, reads the filters and the sender's
   * subscription and — for a chatter no site user linked, while no filter is on (the usual case) —
   * inserts the entry. A linked chatter's partner facts, or a filter, take the general path: the
   * stored facts, the entry filters and the link ages, then the insert. The ages
   * (docs/features/fair-earning.md#account-and-link-age) add no query: the statement reads the
   * fair-earning settings and decides the Kick account age, and a linked chatter's link date comes
   * with the stored facts. The admins get the one new entry, the overlay a throttled count.
   */
  async enter(message: ChatMessage, linkedUser: Pick<UserRow, 'excluded'> | null): Promise<boolean> {
    const text = keyTextOf(message);
    if (text === null || !(await this.chatState.current()).keys.has(text)) return false;
    // An excluded account never enters; the key is still a command (no chat points for it).
    if (linkedUser?.excluded) return true;
    const now = this.now();
    const row = await this.entries.enter({
      key: text,
      kickUserId: message.kickUserId,
      kickUsername: message.kickUsername,
      drawEntry: drawEntryOf(message.kickUserId, message.kickUsername),
      color: message.color,
      at: now,
      mayInsert: linkedUser === null,
    });
    // Deactivated since this process last heard: not a key after all.
    if (!row) return false;
    // Banned on Kick, or a Kick account too new to this channel (the fair-earning minimum, decided
    // by the statement): the key is still a command (no chat points for it), but no entry. The
    // giveaway answers no one in chat, so a refused chatter is not told (nor is any other filter's).
    if (row.banned || row.account_too_new) return true;
    const minLinkedDays = Number(row.min_linked_days);
    // "Linked at least N days": a chatter no site user linked never is.
    if (linkedUser === null && minLinkedDays > 0) return true;
    const roundId = Number(row.round_id);
    const filters = {
      isSubOnly: row.is_sub_only,
      isClashIdLinkedOnly: row.is_clash_id_linked_only,
      isRustMagicCodeOnly: row.is_rust_magic_code_only,
      isRoobetCodeOnly: row.is_roobet_code_only,
    };
    let chatter: Pick<Chatter, 'facts' | 'view' | 'userId' | 'kickLinkedAt'> | null;
    if (linkedUser === null) {
      // What ./facts would say of a chatter no site user linked, from the statement's row.
      const isSubscriber = row.is_subscriber === true;
      chatter = {
        userId: null,
        kickLinkedAt: null,
        facts: {
          excluded: false,
          isSubscriber,
          hasVerifiedClash: false,
          isActiveRustMagic: false,
          isActiveOnRoobet: false,
        },
        view: {
          kickUserId: message.kickUserId,
          username: message.kickUsername,
          identity: { color: row.color },
          isSubscriber,
          account: null,
          isActiveOnClash: false,
          isActiveOnCsGoBig: false,
          isActiveRustMagic: false,
          isActiveOnHowl: false,
          isActiveOnRoobet: false,
          wagered10k: false,
        },
      };
      if (row.inserted) this.entered(chatter.view);
      // No filter on: the statement inserted the entry, or it was in the round already.
      if (!Object.values(filters).some(Boolean)) return true;
    } else {
      chatter = await chatterFacts(
        this.app.db,
        { kickUserId: message.kickUserId, username: message.kickUsername, color: message.color },
        now,
      );
    }
    if (!chatter || filterRefusal(filters, chatter.facts)) return true;
    const ages = { minLinkedDays, minLinkDays: Number(row.min_link_days) };
    if (linkAgeRefusal(ages, chatter.kickLinkedAt, now)) return true;
    const inserted = await this.app.db
      .insert(giveawayParticipants)
      .values({
        roundId,
        kickUserId: message.kickUserId,
        kickUsername: message.kickUsername,
        drawEntry: drawEntryOf(message.kickUserId, message.kickUsername),
        color: chatter.view.identity.color,
        userId: chatter.userId,
        enteredAt: now,
      })
      .onConflictDoNothing()
      .returning({ kickUserId: giveawayParticipants.kickUserId });
    if (inserted.length > 0) this.entered(chatter.view);
    return true;
  }

  /**
   * A chatter just banned on Kick leaves the current round (inside the transaction that recorded
   * the ban); once committed, the admins get the new list and the overlay the new count.
   */
  async dropBanned(tx: Tx, kickUserId: string, after: AfterCommit): Promise<boolean> {
    const dropped = await tx
      .delete(giveawayParticipants)
      .where(
        and(
          eq(giveawayParticipants.kickUserId, kickUserId),
          eq(giveawayParticipants.roundId, sql`(SELECT round_id FROM giveaway_settings WHERE id = 1)`),
        ),
      )
      .returning({ kickUserId: giveawayParticipants.kickUserId });
    if (dropped.length === 0) return false;
    after.push(async () => {
      this.app.realtime.emitToAdmins(giveawayHub, 'ReceiveParticipants', await this.participants());
      this.overlayCountSoon();
    });
    return true;
  }

  /** Entry statements written so far (tests read it). */
  get entryBatches(): number {
    return this.entries.batches;
  }

  private entered(participant: GiveawayParticipant): void {
    this.app.realtime.emitToAdmins(giveawayHub, 'ReceiveNewParticipant', participant);
    this.overlayCountSoon();
  }

  /** After a roll, the winners' chat messages stream to the admins' panel. */
  async noteWinnerMessage(message: ChatMessage): Promise<void> {
    if (!(await this.chatState.current()).winners.has(message.kickUserId)) return;
    this.app.realtime.emitToAdmins(giveawayHub, 'ReceiveNewWinnerMessage', {
      sender: { username: message.kickUsername, identity: { color: message.color } },
      content: message.content,
    });
  }

  /** The current round's count to the overlay in COUNT_EVERY_MS (one read per window, any number of entries). */
  private overlayCountSoon(): void {
    if (this.countTimer) return;
    this.countTimer = setTimeout(() => {
      this.countTimer = null;
      this.currentParticipantCount().then(
        (n) => this.app.realtime.emit(giveawayOverlayHub, OVERLAY_ROOM, 'ReceiveParticipantCount', n),
        (err: unknown) => this.app.log.warn({ err }, 'giveaway overlay count failed'),
      );
    }, COUNT_EVERY_MS);
    this.countTimer.unref();
  }
}

/** A chat message's text as a key is compared (trimmed, lower case), or null when no key can be that long or empty. */
function keyTextOf(message: ChatMessage): string | null {
  const text = message.content.trim().toLowerCase();
  return text.length === 0 || text.length > KEY_MAX_LENGTH ? null : text;
}

function overlayRollOf(roll: GiveawayRoll, reel: OverlayName[]): OverlayRoll {
  return {
    rollId: roll.rollId,
    rolledAt: roll.rolledAt,
    landsAt: roll.landsAt,
    winners: roll.winners.map(overlayNameOf),
    reel,
  };
}

/** Up to `n` entries picked at random (a cosmetic reel for the overlay, not part of the draw). */
function sample<T>(list: readonly T[], n: number): T[] {
  const copy = [...list];
  const take = Math.min(n, copy.length);
  // The first `take` steps of a Fisher–Yates shuffle: a uniform sample in random order.
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(Math.random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, take);
}
