/**
 * Ticket raffles (docs/features/raffles.md): Admin → Raffles (create, edit, open, close, cancel,
 * draw), buying tickets, the close on a durable deadline (games/timers.ts: a row in game_timers
 * that any process fires once, surviving restarts), the draw announced after commit on the
 * `/Raffles` hub (the site page and the OBS wheel) and in chat through the Kick bot.
 */
import { count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  raffleMessages,
  type AdminRaffle,
  type MyRaffleTicket,
  type RaffleDetail,
  type RaffleValues,
} from '@kickback/common/http/raffles';
import type { Paged } from '@kickback/common/http/endpoint';
import type { RollRecord } from '@kickback/common/http/giveaway';
import { rafflesHub, type RaffleDrawn } from '@kickback/common/hubs/raffles';
import { centsToText, decimalToNumber, toCents } from '@kickback/common/money';
import type { DbOrTx, Tx } from '../../db/client';
import { rafflePrizes, raffles, raffleTickets, raffleWinners, type RaffleRow } from '../../db/schema/raffles';
import { users, type UserRow } from '../../db/schema/users';
import { transactionThen, type AfterCommit } from '../../lib/after-commit';
import { newSeed } from '../../lib/draw-crypto';
import { conflict, notFound } from '../../lib/errors';
import { t } from '../../lib/i18n';
import type { FireResult } from '../../games/timers';
import { actorOf, recordAudit } from '../audit/service';
import { chatLocale } from '../languages/service';
import { closeRaffle, drawRaffle, type DrawnWinner } from './draw';
import { adminList, adminView, publicDetail, publicList } from './presenter';

/**
 * How the chat announcement names each winner (docs/features/raffles.md#the-draw-and-how-to-verify-it): a mention of the
 * linked Kick account (`@KickName` pings the winner), else the site name with no `@` (a mention of a
 * site name would ping nobody, or a stranger who has that name on Kick).
 */
async function kickNamesOf(db: DbOrTx, winners: DrawnWinner[]): Promise<string[]> {
  if (winners.length === 0) return [];
  const ids = [...new Set(winners.map((w) => w.userId))];
  const rows = await db
    .select({ id: users.id, kickUsername: users.kickUsername })
    .from(users)
    .where(inArray(users.id, ids));
  const kick = new Map(rows.map((r) => [r.id, r.kickUsername]));
  return winners.map((w) => {
    const name = kick.get(w.userId);
    return name ? `@${name}` : w.username;
  });
}
import { buyTickets, raffleGate, refundTickets, type RaffleHooks } from './tickets';

export { grantSupportTickets } from './tickets';

export const RAFFLE_ROOM = 'raffles';
export const RAFFLE_CLOSE_TIMER = 'raffle-close';
const REEL_SIZE = 100;
const MY_TICKETS_PAGE = 20;
/** Tickets sold reach the pages at most this often per raffle and process (never per purchase). */
const CHANGED_EVERY_MS = 250;

function columns(v: RaffleValues) {
  return {
    title: v.title,
    description: v.description,
    imageUrl: v.imageUrl,
    ticketPrice: centsToText(toCents(v.ticketPrice)),
    maxTicketsPerUser: v.maxTicketsPerUser,
    requireKick: v.requireKick,
    requireVerifiedPartner: v.requireVerifiedPartner,
    subsOnly: v.subsOnly,
    sellTickets: v.sellTickets,
    ticketsPerSub: v.ticketsPerSub,
    subCap: v.subCap,
    ticketsPerGift: v.ticketsPerGift,
    giftCap: v.giftCap,
    kicksPerTicket: v.kicksPerTicket,
    kicksCap: v.kicksCap,
    opensAt: new Date(v.opensAt),
    closesAt: new Date(v.closesAt),
  };
}

async function savePrizes(tx: Tx, raffleId: string, prizes: RaffleValues['prizes']): Promise<void> {
  await tx.delete(rafflePrizes).where(eq(rafflePrizes.raffleId, raffleId));
  await tx.insert(rafflePrizes).values(
    prizes.map((p, position) => ({
      raffleId,
      position,
      kind: p.kind,
      points: p.kind === 'points' ? centsToText(toCents(p.points)) : null,
      item: p.kind === 'item' ? p.item : null,
    })),
  );
}

/** The raffle row FOR UPDATE, behind the exclusive gate (no purchase in flight). */
async function lockRaffle(tx: Tx, id: string): Promise<RaffleRow> {
  await raffleGate(tx, id, true);
  const [row] = await tx.select().from(raffles).where(eq(raffles.id, id)).for('update');
  if (!row) throw notFound(raffleMessages.notFound);
  return row;
}

export class RaffleService {
  readonly hooks: RaffleHooks & {
    /** In a close-and-draw, right after the raffle row was locked. Tests race here. */
    afterDrawLock?(tx: Tx): Promise<void>;
  } = {};
  private readonly pendingChanges = new Map<string, NodeJS.Timeout>();

  constructor(private readonly app: FastifyInstance) {
    app.timers.register(RAFFLE_CLOSE_TIMER, {
      fire: (tx, id, version, after) => this.fireClose(tx, id, version, after),
    });
  }

  private now(): Date {
    return this.app.clock.now();
  }

  stop(): void {
    for (const timer of this.pendingChanges.values()) clearTimeout(timer);
    this.pendingChanges.clear();
  }

  // ------------------------------------------------------------------ reads

  list(user: UserRow | null) {
    return publicList(this.app.db, user?.id ?? null);
  }

  async detail(id: string, user: UserRow | null): Promise<RaffleDetail> {
    const [row] = await this.app.db.select().from(raffles).where(eq(raffles.id, id));
    if (!row || row.status === 'draft') throw notFound(raffleMessages.notFound);
    return publicDetail(this.app.db, row, user?.id ?? null);
  }

  adminList(): Promise<AdminRaffle[]> {
    return adminList(this.app.db);
  }

  /** The drawn raffle's public record in the giveaway's roll-record shape, for the verify page. */
  async drawRecord(id: string): Promise<RollRecord> {
    const [row] = await this.app.db.select().from(raffles).where(eq(raffles.id, id));
    if (!row || row.status === 'draft') throw notFound(raffleMessages.notFound);
    if (row.status !== 'drawn' || !row.serverSeed || !row.snapshot) throw notFound(raffleMessages.notDrawn);
    const winners = await this.app.db
      .select()
      .from(raffleWinners)
      .where(eq(raffleWinners.raffleId, id))
      .orderBy(raffleWinners.position);
    const prizes = await this.app.db.select({ n: count() }).from(rafflePrizes).where(eq(rafflePrizes.raffleId, id));
    return {
      rollId: row.id,
      committedAt: (row.committedAt ?? row.createdAt).toISOString(),
      rolledAt: (row.drawnAt ?? row.updatedAt).toISOString(),
      seedHash: row.seedHash ?? '',
      serverSeed: row.serverSeed,
      snapshotHash: row.snapshotHash ?? '',
      snapshot: JSON.parse(row.snapshot) as RollRecord['snapshot'],
      winnersWanted: prizes[0]?.n ?? 0,
      winners: winners.map((w) => w.userId),
      winnerNames: winners.map((w) => w.username),
    };
  }

  /** The owner's tickets, newest first, with what they won in each raffle. */
  async myTickets(userId: string, page: number): Promise<Paged<MyRaffleTicket>> {
    const db = this.app.db;
    const [rows, [total]] = await Promise.all([
      db
        .select({
          id: raffleTickets.id,
          raffleId: raffleTickets.raffleId,
          raffleTitle: raffles.title,
          raffleStatus: raffles.status,
          source: raffleTickets.source,
          quantity: raffleTickets.quantity,
          pointsPaid: raffleTickets.pointsPaid,
          refundedAt: raffleTickets.refundedAt,
          createdAt: raffleTickets.createdAt,
          won: sql<string[]>`coalesce((SELECT array_agg(w.prize ORDER BY w.position) FROM raffle_winners w
                 WHERE w.raffle_id = ${raffleTickets.raffleId} AND w.user_id = ${raffleTickets.userId}), '{}')`,
        })
        .from(raffleTickets)
        .innerJoin(raffles, eq(raffles.id, raffleTickets.raffleId))
        .where(eq(raffleTickets.userId, userId))
        .orderBy(desc(raffleTickets.id))
        .limit(MY_TICKETS_PAGE)
        .offset((page - 1) * MY_TICKETS_PAGE),
      db.select({ n: count() }).from(raffleTickets).where(eq(raffleTickets.userId, userId)),
    ]);
    return {
      items: rows.map(({ refundedAt, pointsPaid, createdAt, ...r }) => ({
        ...r,
        pointsPaid: decimalToNumber(pointsPaid),
        refunded: refundedAt !== null,
        createdAt: createdAt.toISOString(),
      })),
      total: total?.n ?? 0,
      page,
      pageSize: MY_TICKETS_PAGE,
    };
  }

  /** The last draw, for a wheel that connects after it (shown landed). */
  async lastDraw(): Promise<RaffleDrawn | null> {
    const [row] = await this.app.db
      .select()
      .from(raffles)
      .where(eq(raffles.status, 'drawn'))
      .orderBy(desc(raffles.drawnAt))
      .limit(1);
    if (!row) return null;
    const winners = await this.app.db
      .select()
      .from(raffleWinners)
      .where(eq(raffleWinners.raffleId, row.id))
      .orderBy(raffleWinners.position);
    return this.drawnView(this.app.db, row, winners);
  }

  private async drawnView(db: DbOrTx, raffle: RaffleRow, winners: DrawnWinner[]): Promise<RaffleDrawn> {
    const people = await db
      .select({ id: users.id, username: users.username, avatarUrl: users.avatarUrl })
      .from(users)
      .where(
        sql`${users.id} IN (SELECT user_id FROM raffle_entries WHERE raffle_id = ${raffle.id} AND tickets > 0
                            ORDER BY random() LIMIT ${REEL_SIZE})
            OR ${users.id} IN (SELECT user_id FROM raffle_winners WHERE raffle_id = ${raffle.id})`,
      );
    const byId = new Map(people.map((p) => [p.id, p]));
    return {
      raffleId: raffle.id,
      title: raffle.title,
      drawnAt: (raffle.drawnAt ?? this.now()).toISOString(),
      winners: winners.map((w) => ({
        username: w.username,
        color: null,
        avatarUrl: byId.get(w.userId)?.avatarUrl ?? null,
        prize: w.prize,
      })),
      reel: people.map((p) => ({ username: p.username, color: null, avatarUrl: p.avatarUrl })),
    };
  }

  // ------------------------------------------------------------------ buying

  async buy(user: UserRow, raffleId: string, quantity: number) {
    const done = await transactionThen(
      this.app.db,
      (tx) => buyTickets(tx, raffleId, user.id, quantity, this.now(), this.hooks),
      this.app.log,
    );
    this.changed(raffleId);
    return {
      message: raffleMessages.bought(quantity),
      myTickets: done.myTickets,
      balance: decimalToNumber(done.balance),
    };
  }

  /** Tells the pages the raffle's tickets sold (after commit; folded per raffle). */
  changed(raffleId: string): void {
    if (this.pendingChanges.has(raffleId)) return;
    const timer = setTimeout(() => {
      this.pendingChanges.delete(raffleId);
      void this.emitChanged(raffleId).catch((err: unknown) =>
        this.app.log.warn({ err, raffleId }, 'raffle change broadcast failed'),
      );
    }, CHANGED_EVERY_MS);
    timer.unref();
    this.pendingChanges.set(raffleId, timer);
  }

  private async emitChanged(raffleId: string): Promise<void> {
    const [row] = await this.app.db.select().from(raffles).where(eq(raffles.id, raffleId));
    if (!row) return;
    const view = await publicDetail(this.app.db, row, null);
    this.app.realtime.emit(rafflesHub, RAFFLE_ROOM, 'RaffleChanged', {
      id: row.id,
      status: row.status,
      ticketsSold: view.ticketsSold,
    });
  }

  // ------------------------------------------------------------------ admin

  private async audited(
    admin: UserRow,
    action: string,
    fn: (tx: Tx, after: AfterCommit) => Promise<{ row: RaffleRow; before?: unknown }>,
    message: (row: RaffleRow) => string,
  ): Promise<{ message: string; raffle: AdminRaffle }> {
    const row = await transactionThen(
      this.app.db,
      async (tx, after) => {
        const { row, before } = await fn(tx, after);
        await recordAudit(tx, actorOf(admin), {
          action: `raffle.${action}`,
          targetType: 'raffle',
          targetId: row.id,
          before,
          after: { title: row.title, status: row.status, closesAt: row.closesAt.toISOString() },
        });
        return row;
      },
      this.app.log,
    );
    this.changed(row.id);
    return { message: message(row), raffle: await adminView(this.app.db, row) };
  }

  create(admin: UserRow, values: RaffleValues) {
    return this.audited(
      admin,
      'create',
      async (tx) => {
        const [row] = await tx
          .insert(raffles)
          .values({ ...columns(values), createdBy: admin.id, createdAt: this.now(), updatedAt: this.now() })
          .returning();
        await savePrizes(tx, row!.id, values.prizes);
        return { row: row! };
      },
      () => raffleMessages.created,
    );
  }

  update(admin: UserRow, id: string, values: RaffleValues) {
    return this.audited(
      admin,
      'update',
      async (tx) => {
        const before = await lockRaffle(tx, id);
        if (before.status !== 'draft') throw conflict(raffleMessages.onlyDraft);
        const [row] = await tx
          .update(raffles)
          .set({ ...columns(values), updatedAt: this.now() })
          .where(eq(raffles.id, id))
          .returning();
        await savePrizes(tx, id, values.prizes);
        return { row: row!, before: { title: before.title, closesAt: before.closesAt.toISOString() } };
      },
      () => raffleMessages.saved,
    );
  }

  /** Opens a draft: its seed drawn and its hash published, its close put on the durable deadline. */
  open(admin: UserRow, id: string) {
    return this.audited(
      admin,
      'open',
      async (tx, after) => {
        const before = await lockRaffle(tx, id);
        if (before.status !== 'draft') throw conflict(raffleMessages.onlyDraft);
        const now = this.now();
        const version = before.version + 1;
        const [row] = await tx
          .update(raffles)
          .set({ ...newSeed(), status: 'open', committedAt: now, version, updatedAt: now })
          .where(eq(raffles.id, id))
          .returning();
        await this.app.timers.schedule(tx, after, {
          kind: RAFFLE_CLOSE_TIMER,
          subjectId: id,
          version,
          dueAt: row!.closesAt,
        });
        return { row: row! };
      },
      () => raffleMessages.opened,
    );
  }

  /** Stops sales: the ticket snapshot is stored and hashed; the draw follows (Draw, or the deadline). */
  close(admin: UserRow, id: string) {
    return this.audited(
      admin,
      'close',
      async (tx, after) => {
        const before = await lockRaffle(tx, id);
        if (before.status !== 'open') throw conflict(raffleMessages.notOpen);
        const row = await closeRaffle(tx, before, this.now());
        // The deadline now draws at once (it is due at the new closing time).
        await tx.update(raffles).set({ closesAt: row.closedAt! }).where(eq(raffles.id, id));
        await tx.execute(
          sql`UPDATE game_timers SET due_at = ${row.closedAt!.toISOString()}::timestamptz
              WHERE kind = ${RAFFLE_CLOSE_TIMER} AND subject_id = ${id}`,
        );
        after.push(() => this.app.timers.arm(row.closedAt!.getTime()));
        return { row: { ...row, closesAt: row.closedAt! } };
      },
      () => raffleMessages.closed,
    );
  }

  /** Cancels a raffle not drawn yet: every bought ticket refunded, once. */
  cancel(admin: UserRow, id: string) {
    let refunds = 0;
    return this.audited(
      admin,
      'cancel',
      async (tx) => {
        const before = await lockRaffle(tx, id);
        if (before.status === 'drawn') throw conflict(raffleMessages.alreadyDrawn);
        if (before.status === 'cancelled') throw conflict(raffleMessages.alreadyCancelled);
        const now = this.now();
        const [row] = await tx
          .update(raffles)
          .set({ status: 'cancelled', updatedAt: now })
          .where(eq(raffles.id, id))
          .returning();
        refunds = await refundTickets(tx, id, `${before.title} (cancelled)`, now);
        return { row: row! };
      },
      () => raffleMessages.cancelled(refunds),
    );
  }

  /** Draws now (closing first when still open). */
  draw(admin: UserRow, id: string) {
    return this.audited(
      admin,
      'draw',
      async (tx, after) => {
        const row = await this.closeAndDraw(tx, await lockRaffle(tx, id), after, true, admin);
        return { row };
      },
      () => raffleMessages.drawn,
    );
  }

  /**
   * The draw, once: the caller locked the row FOR UPDATE, so a second draw (another process, the
   * deadline and the button at once, a restart) waits and then finds it drawn.
   */
  private async closeAndDraw(
    tx: Tx,
    locked: RaffleRow,
    after: AfterCommit,
    refuse: boolean,
    drawer: UserRow | null,
  ): Promise<RaffleRow> {
    await this.hooks.afterDrawLock?.(tx);
    if (locked.status !== 'open' && locked.status !== 'closed') {
      if (!refuse) return locked;
      if (locked.status === 'drawn') throw conflict(raffleMessages.alreadyDrawn);
      if (locked.status === 'cancelled') throw conflict(raffleMessages.alreadyCancelled);
      throw conflict(raffleMessages.notOpen);
    }
    const now = this.now();
    const closed = locked.status === 'open' ? await closeRaffle(tx, locked, now) : locked;
    const winners = await drawRaffle(tx, closed, now, drawer ? { ...actorOf(drawer), userId: drawer.id } : null);
    const drawn = { ...closed, status: 'drawn' as const, drawnAt: now };
    const view = await this.drawnView(tx, drawn, winners);
    const chatNames = await kickNamesOf(tx, winners);
    after.push(() => {
      this.app.realtime.emit(rafflesHub, RAFFLE_ROOM, 'RaffleDrawn', view);
      this.changed(drawn.id);
      return this.announce(view, chatNames);
    });
    return drawn;
  }

  /** The durable deadline: draws the raffle at its closing time, on whichever process fires it. */
  private async fireClose(tx: Tx, id: string, version: number, after: AfterCommit): Promise<FireResult> {
    await raffleGate(tx, id, true);
    const [row] = await tx.select().from(raffles).where(eq(raffles.id, id)).for('update');
    if (!row || row.version !== version) return 'done';
    if (row.status === 'open' && row.closesAt > this.now()) return { notBefore: row.closesAt };
    await this.closeAndDraw(tx, row, after, false, null);
    return 'done';
  }

  /** The winners in chat, through the Kick bot (logged when none is connected). */
  private async announce(view: RaffleDrawn, chatNames: string[]): Promise<void> {
    // In the chat's language (docs/features/languages.md#the-chat-bot).
    const locale = chatLocale(this.app);
    const text =
      view.winners.length === 0
        ? t(locale, 'bot:raffleNoWinner', { title: view.title })
        : t(locale, 'bot:raffleDrawn', {
            title: view.title,
            winners: view.winners
              .map((w, i) => t(locale, 'bot:raffleWinner', { name: chatNames[i] ?? '', prize: w.prize }))
              .join(', '),
            url: `${this.app.config.publicOrigin}/raffles/${view.raffleId}/verify`,
          });
    try {
      await this.app.chatOut.enqueue({ kind: 'announce', text: text.slice(0, 500) });
    } catch (err) {
      this.app.log.error({ err, raffleId: view.raffleId }, 'raffle announcement could not be queued');
    }
  }
}
