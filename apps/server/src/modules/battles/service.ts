/**
 * Bonus-buy battles on the server (docs/features/bonus-buy-battles.md): creating one (its seed
 * drawn and its hash published, the registration deadline stored with the engine's timers),
 * entering (the battle's entry rules checked against stored data), slots, the provably fair draw
 * of the bracket once registration closed, and the streamer's results, replays and voids. Every
 * change runs through the engine (../../games/runner: lock the row, rule, save, settle, emit after
 * commit) with the definition of ./game; an admin's change is audited in its transaction.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  cancel as cancelRule,
  close as closeRule,
  MAX_SLOT_LENGTH,
  enter as enterRule,
  newBattle,
  record as recordRule,
  replay as replayRule,
  seat,
  setSlot as setSlotRule,
  voidMatch,
  type BattleGame,
  type BracketSize,
  type Outcome,
} from '@kickback/common/games/battle';
import { drawFromPrepared, snapshotText, type DrawEntry } from '@kickback/common/giveaway/draw';
import type { BattleState } from '@kickback/common/hubs/battle';
import {
  battleMessages,
  type battleInput,
  type BattleSummary,
  type matchResultBody,
} from '@kickback/common/http/battles';
import type { RollRecord } from '@kickback/common/http/giveaway';
import type { Role } from '@kickback/common/http/auth';
import { liveGames, type LiveGameRow } from '../../db/schema/games';
import { gameHub, LiveGame, viewerOf } from '../../games/live-game';
import { transactionThen } from '../../lib/after-commit';
import { nodeDrawCrypto, newSeed } from '../../lib/draw-crypto';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors';
import { actorOf, recordAudit } from '../audit/service';
import { barredNow, entryRefusal } from './eligibility';
import { BATTLE_KIND, BATTLE_NOT_FOUND, battleGame, store } from './game';

export interface Viewer {
  id: string;
  role: Role;
}
export interface Admin extends Viewer {
  username: string;
}

export class BattleService {
  /** The battle registered with the engine, with the live-game kit's plumbing (../../games/live-game). */
  private readonly live;

  constructor(private readonly app: FastifyInstance) {
    this.live = new LiveGame(app, battleGame({ closed: (id) => void this.drawQuietly(id) }), {
      recordAudit: (tx, admin: Admin, entry) => recordAudit(tx, actorOf(admin), entry),
    });
  }

  private get runner() {
    return this.live.runner;
  }

  /** The hub's handshake (every viewer joins the battle's room) and `GetGameState`. */
  hub() {
    return gameHub(this.live);
  }

  private now(): Date {
    return this.app.clock.now();
  }

  private async row(battleId: string): Promise<LiveGameRow> {
    const row = await this.runner.find(battleId);
    if (!row) throw notFound(BATTLE_NOT_FOUND);
    return row;
  }

  // ---------------------------------------------------------------- reads

  /** The state (404 for an unknown battle): battles are public, every viewer sees the same. */
  async state(battleId: string, viewer: Viewer | null): Promise<BattleState> {
    return (await this.live.state(battleId, viewer))!;
  }

  private summary(row: LiveGameRow): BattleSummary {
    const game = store.toGame(row);
    return {
      id: row.id,
      title: game.title,
      size: game.size,
      status: game.status,
      entrants: game.entrants.length,
      winner: game.entrants.find((e) => e.userId === game.winnerId)?.username ?? null,
      registrationEndsAt:
        game.status === 'registration' && game.phaseEndsAt !== null ? new Date(game.phaseEndsAt).toISOString() : null,
      createdAt: row.createdAt.toISOString(),
    };
  }

  /** The latest battles, newest first. */
  async list(limit = 50): Promise<BattleSummary[]> {
    const rows = await this.app.db
      .select()
      .from(liveGames)
      .where(eq(liveGames.kind, BATTLE_KIND))
      .orderBy(desc(liveGames.createdAt), desc(liveGames.seq))
      .limit(limit);
    return rows.map((r) => this.summary(r));
  }

  /** The battle the overlay shows: the newest one not over, else the newest finished one. */
  async current(): Promise<string | null> {
    const pick = async (statuses: string[]) => {
      const [row] = await this.app.db
        .select({ id: liveGames.id })
        .from(liveGames)
        .where(and(eq(liveGames.kind, BATTLE_KIND), inArray(sql<string>`${liveGames.state}->>'status'`, statuses)))
        .orderBy(desc(liveGames.createdAt), desc(liveGames.seq))
        .limit(1);
      return row?.id ?? null;
    };
    return (await pick(['registration', 'closed', 'playing'])) ?? (await pick(['finished']));
  }

  /** The draw's public record, in the giveaway's roll record shape, once the bracket is drawn. */
  async drawRecord(battleId: string): Promise<RollRecord> {
    const row = await this.row(battleId);
    const game = store.toGame(row);
    if (game.drawn === null || game.snapshot === null || game.snapshotHash === null) {
      throw conflict('The bracket is not drawn yet.');
    }
    const snapshot = JSON.parse(game.snapshot) as DrawEntry[];
    const nameOf = new Map(snapshot.map((e) => [e.kickUserId, e.username]));
    return {
      rollId: row.id,
      committedAt: row.createdAt.toISOString(),
      rolledAt: new Date(game.drawnAt ?? row.updatedAt.getTime()).toISOString(),
      seedHash: game.seedHash,
      serverSeed: game.seed,
      snapshotHash: game.snapshotHash,
      snapshot,
      winnersWanted: game.drawn.length,
      winners: game.drawn,
      winnerNames: game.drawn.map((id) => nameOf.get(id) ?? ''),
    };
  }

  // ---------------------------------------------------------------- admin

  async create(admin: Admin, input: z.output<typeof battleInput>): Promise<{ id: string }> {
    const { serverSeed, seedHash } = newSeed();
    const now = this.now();
    const game = newBattle({
      title: input.title,
      size: input.size as BracketSize,
      rules: { siteId: input.siteId, minWager: input.minWager, subsOnly: input.subsOnly },
      prize: input.prize,
      seed: serverSeed,
      seedHash,
      registrationEndsAt: now.getTime() + input.registrationMinutes * 60_000,
    });
    return transactionThen(
      this.app.db,
      async (tx, after) => {
        const row = await store.create(tx, game, admin.id, now);
        await this.app.timers.schedule(tx, after, {
          kind: BATTLE_KIND,
          subjectId: row.id,
          version: game.phaseVersion!,
          dueAt: new Date(game.phaseEndsAt!),
        });
        await recordAudit(tx, actorOf(admin), {
          action: 'battle.create',
          targetType: 'battle',
          targetId: row.id,
          after: { ...input, seedHash },
        });
        return { id: row.id };
      },
      this.app.log,
    );
  }

  /** An admin's change: the rule under the row lock, audited in the same transaction. */
  private adminAct(
    admin: Admin,
    battleId: string,
    action: string,
    rule: (game: BattleGame) => Outcome,
    detail: Record<string, unknown> = {},
  ): Promise<BattleState> {
    const summary = (row: LiveGameRow) => {
      const game = store.toGame(row);
      return { status: game.status, version: game.version };
    };
    return this.live.adminAct(admin, battleId, rule, {
      action,
      targetType: 'battle',
      before: summary,
      after: (row) => ({ ...summary(row), ...detail }),
    });
  }

  /** Closes registration and draws the bracket. */
  async close(admin: Admin, battleId: string): Promise<BattleState> {
    await this.adminAct(admin, battleId, 'battle.close', (g) => closeRule(g));
    return this.draw(battleId, admin);
  }

  /**
   * Draws the bracket of a closed battle: the frozen snapshot hashed, the field drawn under the
   * committed seed by the giveaway's procedure, the result seated under the row lock (a second
   * draw finds the battle playing and is refused, so the bracket is drawn once).
   */
  async draw(battleId: string, viewer: Viewer | null = null): Promise<BattleState> {
    const row = await this.row(battleId);
    const game = store.toGame(row);
    if (game.status !== 'closed' || game.snapshot === null) return this.runner.view(row, viewerOf(viewer));
    const frozen = JSON.parse(game.snapshot) as DrawEntry[];
    // Excluded or banned since entering: left out of the draw (docs/features/bonus-buy-battles.md#who-may-enter).
    const barred = await barredNow(
      this.app.db,
      frozen.map((e) => e.kickUserId),
      this.now(),
    );
    const entries = frozen.filter((e) => !barred.has(e.kickUserId));
    if (entries.length < 2) {
      const { view } = await this.runner.act(battleId, viewerOf(viewer), (g) =>
        cancelRule(g, 'Fewer than two entrants may still play.'),
      );
      return view;
    }
    const snapshot = barred.size === 0 ? game.snapshot : snapshotText(entries);
    const hash = await nodeDrawCrypto.sha256Hex(snapshot);
    const order = await drawFromPrepared(
      nodeDrawCrypto,
      game.seed,
      { entries, hash },
      Math.min(game.size, entries.length),
    );
    const at = this.now().getTime();
    try {
      const { view } = await this.runner.act(battleId, viewerOf(viewer), (g) =>
        seat(g, { snapshotHash: hash, order, now: at, snapshot }),
      );
      return view;
    } catch (err) {
      // Another process (or the close's own after-commit draw) seated it first.
      if (err instanceof AppError && err.statusCode === 409) return this.state(battleId, viewer);
      throw err;
    }
  }

  private async drawQuietly(battleId: string): Promise<void> {
    await this.draw(battleId).catch((err: unknown) => this.app.log.error({ err, battleId }, 'battle draw failed'));
  }

  /** Draws every battle left closed and undrawn (a process that died between the close and the draw). */
  async drawPending(): Promise<void> {
    const rows = await this.app.db
      .select({ id: liveGames.id })
      .from(liveGames)
      .where(and(eq(liveGames.kind, BATTLE_KIND), sql`${liveGames.state}->>'status' = 'closed'`));
    for (const r of rows) await this.drawQuietly(r.id);
  }

  cancel(admin: Admin, battleId: string, reason: string) {
    return this.adminAct(admin, battleId, 'battle.cancel', (g) => cancelRule(g, reason), { reason });
  }

  record(admin: Admin, battleId: string, matchNo: number, body: z.output<typeof matchResultBody>) {
    return this.adminAct(admin, battleId, 'battle.result', (g) => recordRule(g, { matchNo, ...body }), {
      matchNo,
      ...body,
    });
  }

  replay(admin: Admin, battleId: string, matchNo: number, reason: string) {
    return this.adminAct(admin, battleId, 'battle.replay', (g) => replayRule(g, matchNo), { matchNo, reason });
  }

  voidMatch(admin: Admin, battleId: string, matchNo: number, reason: string) {
    return this.adminAct(admin, battleId, 'battle.void', (g) => voidMatch(g, matchNo, reason), { matchNo, reason });
  }

  adminSlot(admin: Admin, battleId: string, userId: string, slot: string) {
    return this.adminAct(admin, battleId, 'battle.slot', (g) => setSlotRule(g, userId, slot), { userId, slot });
  }

  // ---------------------------------------------------------------- entrants

  /** Enters the user, when the battle's rules let them (403 with the reason otherwise). */
  async enter(user: Viewer & { username: string }, battleId: string): Promise<BattleState> {
    const game = store.toGame(await this.row(battleId));
    if (game.status !== 'registration') throw this.runner.refused('not_registration');
    const refusal = await entryRefusal(this.app.db, game.rules, user.id, this.now());
    if (refusal) throw forbidden(battleMessages.notEligible(refusal));
    // The slot of their call still waiting in the slot calls' queue, if any (they may change it).
    const call = await this.app.slotCalls.openCallOf({ userId: user.id });
    const slot = call ? call.slot.slice(0, MAX_SLOT_LENGTH) : null;
    return this.live.act(user, battleId, (g, u) =>
      enterRule(g, { userId: u.id, username: u.username, now: this.now().getTime(), slot }),
    );
  }

  async setSlot(user: Viewer, battleId: string, slot: string): Promise<BattleState> {
    return this.live.act(user, battleId, (g, u) => {
      if (!g.entrants.some((e) => e.userId === u.id)) throw forbidden('You are not in this battle.');
      return setSlotRule(g, u.id, slot);
    });
  }

  /** The battle taking entries now (the newest), for `!enter`. */
  async openForEntries(): Promise<string | null> {
    const [row] = await this.app.db
      .select({ id: liveGames.id })
      .from(liveGames)
      .where(and(eq(liveGames.kind, BATTLE_KIND), sql`${liveGames.state}->>'status' = 'registration'`))
      .orderBy(desc(liveGames.createdAt), desc(liveGames.seq))
      .limit(1);
    return row?.id ?? null;
  }
}
