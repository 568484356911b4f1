/**
 * The chat giveaway (issue 14, DESIGN §10): entries from chat keys, settings and keys, provably
 * fair rolls with point prizes through the ledger, the recent winners line and the winners' chat
 * messages. Every change is a row in PostgreSQL and every broadcast goes out after commit through
 * the hub layer's audiences (the admins; the public overlay room), so several processes serve one
 * giveaway. This file is the module's public surface.
 */
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { canonicalSnapshot, drawWinners, snapshotHashOf } from '@kickback/common/giveaway/draw';
import { giveawayErrors } from '@kickback/common/giveaway/texts';
import {
  giveawayHub,
  KEY_MAX_LENGTH,
  type GiveawayKey,
  type GiveawayParticipant,
  type GiveawayRoll,
  type GiveawaySettings,
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
import { giveawayParticipants, giveawaySettings, giveawayWinners } from '../../db/schema/giveaway';
import type { UserRow } from '../../db/schema/users';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import { transactionThen } from '../../lib/after-commit';
import { conflict, notFound } from '../../lib/errors';
import { actorOf, recordAudit } from '../audit/service';
import { applyBalanceChange } from '../ledger/service';
import {
  consumeDraw,
  ensureOpenDraw,
  findDraw,
  lastRoll,
  nodeDrawCrypto,
  openDraw,
  rollView,
  winnersOf,
} from './draws';
import { filterRefusal, rollRefusal, weightOf } from './eligibility';
import { chatterFacts, roundFacts, type Chatter } from './facts';
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

  constructor(private readonly app: FastifyInstance) {}

  private now(): Date {
    return this.app.clock.now();
  }

  /** Stops the pending overlay count (on close). */
  stop(): void {
    if (this.countTimer) clearTimeout(this.countTimer);
    this.countTimer = null;
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

  private async participantCount(roundId: number): Promise<number> {
    const [row] = await this.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(giveawayParticipants)
      .where(eq(giveawayParticipants.roundId, roundId));
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
      snapshot: (draw.snapshot as RollRecord['snapshot'] | null) ?? [],
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
      lastRoll: roll ? { ...this.overlayRollOf(roll, roll.winners), reel: roll.winners.map(overlayNameOf) } : null,
    };
  }

  private overlayRollOf(roll: GiveawayRoll, reelFrom: GiveawayParticipant[]): OverlayRoll {
    return {
      rollId: roll.rollId,
      rolledAt: roll.rolledAt,
      landsAt: roll.landsAt,
      winners: roll.winners.map(overlayNameOf),
      reel: sample(reelFrom, REEL_SIZE).map(overlayNameOf),
    };
  }

  // ------------------------------------------------------------------ admin changes

  async updateSettings(admin: UserRow, next: GiveawaySettings): Promise<GiveawaySettings> {
    await transactionThen(this.app.db, (tx) => updateSettings(tx, admin, next, this.now()), this.app.log);
    await this.broadcastState();
    return settingsOf(await readSettingsRow(this.app.db));
  }

  async addKey(admin: UserRow, key: string): Promise<GiveawayKey[]> {
    await transactionThen(this.app.db, (tx) => addKey(tx, admin, key, this.now()), this.app.log);
    await this.broadcastState();
    return listKeys(this.app.db);
  }

  async setKeys(admin: UserRow, keys: readonly string[]): Promise<GiveawayKey[]> {
    await transactionThen(this.app.db, (tx) => setActiveKeys(tx, admin, keys), this.app.log);
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
   */
  async roll(admin: UserRow): Promise<GiveawayRoll> {
    const now = this.now();
    return transactionThen(
      this.app.db,
      async (tx, after) => {
        const row = await readSettingsRow(tx, true);
        await this.hooks.afterLock?.(tx);
        await ensureOpenDraw(tx, now);
        const draw = await openDraw(tx, true);
        if (!draw) throw new Error('no open giveaway draw');
        const settings = settingsOf(row);
        const chatters = await roundFacts(tx, row.roundId, now);
        if (chatters.length === 0) throw conflict(giveawayErrors.noParticipants);
        const eligible = chatters.filter((c) => rollRefusal(settings, c.facts, now) === null);
        if (eligible.length === 0) throw conflict(giveawayErrors.noEligible);

        const snapshot = canonicalSnapshot(
          eligible.map((c) => ({
            kickUserId: c.candidate.kickUserId,
            username: c.candidate.username,
            weight: weightOf(settings, c.facts),
          })),
        );
        const snapshotHash = await snapshotHashOf(nodeDrawCrypto, snapshot);
        const winnerIds = await drawWinners(nodeDrawCrypto, draw.serverSeed, snapshot, settings.winnersPerRoll);
        const prizePoints = centsToText(toCents(settings.prizePoints));
        const consumed = await consumeDraw(tx, draw.id, now, {
          snapshot,
          snapshotHash,
          winnersWanted: settings.winnersPerRoll,
          prizePoints,
          rolledBy: admin.id,
          roundId: row.roundId,
        });
        if (!consumed) throw conflict('Another roll used this draw. Roll again.');

        const byId = new Map(eligible.map((c) => [c.candidate.kickUserId, c]));
        const winners: Chatter[] = winnerIds.map((id) => byId.get(id)!);
        for (const [position, w] of winners.entries()) {
          const paid =
            settings.prizePoints > 0 && w.userId
              ? await applyBalanceChange(tx, {
                  userId: w.userId,
                  currency: 'points',
                  delta: prizePoints,
                  reason: 'giveaway_win',
                  reference: `giveaway:${draw.id}:${w.candidate.kickUserId}`,
                  earning: true,
                })
              : null;
          await tx.insert(giveawayWinners).values({
            drawId: draw.id,
            position,
            kickUserId: w.candidate.kickUserId,
            userId: w.userId,
            wonAt: now,
            entry: w.view,
            prizeLedgerId: paid?.ledgerId ?? null,
          });
        }
        await ensureOpenDraw(tx, now);
        await tx
          .update(giveawaySettings)
          .set({ lastRollId: draw.id, lastWinnerKickIds: winnerIds, updatedAt: now })
          .where(eq(giveawaySettings.id, 1));
        await recordAudit(tx, actorOf(admin), {
          action: 'giveaway.roll',
          targetType: 'giveaway_draw',
          targetId: draw.id,
          after: { winners: winnerIds, eligible: snapshot.length, snapshotHash, prizePoints },
        });
        const roll = rollView(
          { ...draw, rolledAt: now, snapshot, snapshotHash, prizePoints, winnersWanted: settings.winnersPerRoll },
          winners.map((w) => w.view),
        );
        after.push(async () => {
          this.app.realtime.emitToAdmins(giveawayHub, 'ReceiveRoll', roll);
          this.app.realtime.emit(
            giveawayOverlayHub,
            OVERLAY_ROOM,
            'ReceiveRoll',
            this.overlayRollOf(
              roll,
              eligible.map((c) => c.view),
            ),
          );
          this.app.realtime.emitToAdmins(giveawayHub, 'ReceiveWinners', await this.latestWinners());
          await this.broadcastState();
        });
        return roll;
      },
      this.app.log,
    );
  }

  // ------------------------------------------------------------------ chat

  /**
   * A chat message equal (trimmed, any letter case) to an active key enters its sender into the
   * current round once. Cheap: one lookup for the key, one for the chatter's stored facts, one
   * insert; the admins get the one new entry, the overlay a throttled count.
   */
  async enter(message: ChatMessage, linkedUser: Pick<UserRow, 'excluded'> | null): Promise<boolean> {
    const text = message.content.trim().toLowerCase();
    if (text.length === 0 || text.length > KEY_MAX_LENGTH) return false;
    const [row] = await this.app.db
      .select()
      .from(giveawaySettings)
      .where(
        and(
          eq(giveawaySettings.id, 1),
          sql`EXISTS (SELECT 1 FROM giveaway_keys k WHERE k.key_lower = ${text} AND k.is_active)`,
        ),
      );
    if (!row) return false;
    if (linkedUser?.excluded) return true;
    const now = this.now();
    const chatter = await chatterFacts(
      this.app.db,
      { kickUserId: message.kickUserId, username: message.kickUsername, color: message.color },
      now,
    );
    if (!chatter || filterRefusal(settingsOf(row), chatter.facts)) return true;
    const inserted = await this.app.db
      .insert(giveawayParticipants)
      .values({
        roundId: row.roundId,
        kickUserId: message.kickUserId,
        kickUsername: message.kickUsername,
        color: chatter.candidate.color,
        userId: chatter.userId,
        enteredAt: now,
      })
      .onConflictDoNothing()
      .returning({ kickUserId: giveawayParticipants.kickUserId });
    if (inserted.length > 0) {
      this.app.realtime.emitToAdmins(giveawayHub, 'ReceiveNewParticipant', chatter.view);
      this.overlayCountSoon(row.roundId);
    }
    return true;
  }

  /** After a roll, the winners' chat messages stream to the admins' panel. */
  async noteWinnerMessage(message: ChatMessage): Promise<void> {
    const [row] = await this.app.db
      .select({ id: giveawaySettings.id })
      .from(giveawaySettings)
      .where(and(eq(giveawaySettings.id, 1), sql`${message.kickUserId} = ANY(${giveawaySettings.lastWinnerKickIds})`));
    if (!row) return;
    this.app.realtime.emitToAdmins(giveawayHub, 'ReceiveNewWinnerMessage', {
      sender: { username: message.kickUsername, identity: { color: message.color } },
      content: message.content,
    });
  }

  private overlayCountSoon(roundId: number): void {
    if (this.countTimer) return;
    this.countTimer = setTimeout(() => {
      this.countTimer = null;
      this.participantCount(roundId).then(
        (n) => this.app.realtime.emit(giveawayOverlayHub, OVERLAY_ROOM, 'ReceiveParticipantCount', n),
        (err: unknown) => this.app.log.warn({ err }, 'giveaway overlay count failed'),
      );
    }, COUNT_EVERY_MS);
    this.countTimer.unref();
  }
}

/** Up to `n` entries picked at random (a cosmetic reel for the overlay, not part of the draw). */
function sample<T>(list: readonly T[], n: number): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}
