/**
 * The broadcast worker (`app.discordBroadcasts`): sends pending broadcasts in the background, one
 * recipient at a time through the DM sender (whose client keeps to Discord's rate limits). Any
 * process may run it: a job is claimed with a lease on its row (renewed with every recipient), so
 * a job whose process died is taken over once the lease ran out, and one that was stopped by a
 * shutdown is released at once and resumed by the next start. Each recipient's outcome and the
 * job's counters are written together, and only for a recipient still pending, so a send is never
 * counted twice. A user whose DMs turn out closed is marked on the spot; pending recipients with
 * that mark are skipped without asking Discord again.
 */
import { EventEmitter } from 'node:events';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { discordBroadcastRecipients, discordBroadcasts } from '../../db/schema/discord-broadcasts';
import { users } from '../../db/schema/users';
import type { DiscordDmSender, DmOutcome } from '../../integrations/discord/bot';
import { rowsOf } from '../../db/rows';

const LEASE_MS = 2 * 60_000;
const POLL_MS = 3000;
const BATCH = 50;

interface ClaimedJob {
  id: string;
  message: string;
}

interface PendingRecipient {
  id: number;
  discordId: string | null;
  dmClosed: boolean;
}

type Outcome = { status: 'sent' } | { status: 'failed' | 'skipped'; reason: string };

export class BroadcastWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly finished = new EventEmitter();

  constructor(
    private readonly app: FastifyInstance,
    /** The bot's DM sender as the credentials are now (null: no bot), app.credentials. */
    readonly sender: () => DiscordDmSender | null,
    private readonly pollMs = POLL_MS,
  ) {
    this.finished.setMaxListeners(0);
  }

  private get db(): Db {
    return this.app.db;
  }

  private now(): Date {
    return this.app.clock.now();
  }

  private leaseUntil(): string {
    return new Date(this.now().getTime() + LEASE_MS).toISOString();
  }

  start(): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => void this.kick(), this.pollMs);
    this.timer.unref();
    void this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    this.sender()?.close();
  }

  /** Looks for work now (after a new broadcast); joins a pass under way, which then looks again. */
  kick(): Promise<void> {
    if (!this.sender() || this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.app.log.error({ err }, 'discord broadcast worker failed'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** Resolves true when the broadcast finishes in this process within `ms`, else false. */
  waitFor(id: string, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.finished.off(id, done);
        resolve(false);
      }, ms);
      this.finished.once(id, done);
    });
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      while (!this.stopped) {
        const job = await this.claim();
        if (!job) break;
        await this.process(job);
      }
    } while (this.again && !this.stopped);
  }

  private async claim(): Promise<ClaimedJob | null> {
    const now = this.now().toISOString();
    const [job] = rowsOf<ClaimedJob>(
      await this.db.execute(sql`
        UPDATE discord_broadcasts
        SET status = 'running', started_at = COALESCE(started_at, ${now}::timestamptz),
            lease_until = ${this.leaseUntil()}::timestamptz
        WHERE id = (
          SELECT id FROM discord_broadcasts
          WHERE status IN ('pending', 'running') AND (lease_until IS NULL OR lease_until <= ${now}::timestamptz)
          ORDER BY created_at, id LIMIT 1
          FOR UPDATE SKIP LOCKED
        )
        RETURNING id, message
      `),
    );
    return job ?? null;
  }

  private async process(job: ClaimedJob): Promise<void> {
    const sender = this.sender();
    if (!sender) return;
    this.app.log.info({ broadcastId: job.id }, 'discord broadcast sending');
    for (;;) {
      const batch = await this.pendingRecipients(job.id);
      if (batch.length === 0) break;
      for (const r of batch) {
        if (this.stopped) return this.release(job.id);
        const outcome: DmOutcome | null =
          r.discordId && !r.dmClosed ? await sender.send(r.discordId, job.message) : null;
        // A send cut short by our own shutdown stays pending for the next start.
        if (this.stopped && outcome && !outcome.ok && outcome.reason === 'error') return this.release(job.id);
        if (outcome && !outcome.ok && outcome.reason === 'unauthorized') {
          await this.abort(job.id, r.id, outcome.detail);
          return;
        }
        if (outcome && !outcome.ok && outcome.reason === 'error') {
          this.app.log.warn({ broadcastId: job.id, detail: outcome.detail }, 'discord DM failed');
        }
        await this.record(job.id, r, this.outcomeOf(r, outcome));
      }
    }
    await this.finish(job.id, 'completed', null);
  }

  /** Shutting down: hands the job back so the next start (or another process) resumes it. */
  private async release(broadcastId: string): Promise<void> {
    await this.db.update(discordBroadcasts).set({ leaseUntil: null }).where(eq(discordBroadcasts.id, broadcastId));
  }

  private outcomeOf(r: PendingRecipient, outcome: DmOutcome | null): Outcome {
    if (!r.discordId) return { status: 'failed', reason: 'not_linked' };
    if (!outcome) return { status: 'skipped', reason: 'dms_closed' };
    return outcome.ok ? { status: 'sent' } : { status: 'failed', reason: outcome.reason };
  }

  private async pendingRecipients(broadcastId: string): Promise<PendingRecipient[]> {
    return this.db
      .select({
        id: discordBroadcastRecipients.id,
        discordId: discordBroadcastRecipients.discordId,
        dmClosed: sql<boolean>`(${users.discordDmClosedAt} IS NOT NULL AND ${users.discordId} = ${discordBroadcastRecipients.discordId})`,
      })
      .from(discordBroadcastRecipients)
      .leftJoin(users, eq(users.id, discordBroadcastRecipients.userId))
      .where(
        and(eq(discordBroadcastRecipients.broadcastId, broadcastId), eq(discordBroadcastRecipients.status, 'pending')),
      )
      .orderBy(asc(discordBroadcastRecipients.id))
      .limit(BATCH);
  }

  private async record(broadcastId: string, r: PendingRecipient, outcome: Outcome): Promise<void> {
    const now = this.now();
    await this.db.transaction(async (tx) => {
      const [done] = await tx
        .update(discordBroadcastRecipients)
        .set({ status: outcome.status, reason: outcome.status === 'sent' ? null : outcome.reason, doneAt: now })
        .where(and(eq(discordBroadcastRecipients.id, r.id), eq(discordBroadcastRecipients.status, 'pending')))
        .returning({ id: discordBroadcastRecipients.id });
      if (!done) return;
      const counter =
        outcome.status === 'sent'
          ? { sent: sql`${discordBroadcasts.sent} + 1` }
          : { failed: sql`${discordBroadcasts.failed} + 1` };
      await tx
        .update(discordBroadcasts)
        .set({ ...counter, leaseUntil: new Date(this.leaseUntil()) })
        .where(eq(discordBroadcasts.id, broadcastId));
      if (
        outcome.status === 'failed' &&
        (outcome.reason === 'dms_closed' || outcome.reason === 'no_mutual_guild') &&
        r.discordId
      ) {
        await tx
          .update(users)
          .set({ discordDmClosedAt: now })
          .where(and(eq(users.discordId, r.discordId), sql`${users.discordDmClosedAt} IS NULL`));
      }
    });
  }

  /** The bot token was refused: nothing else can be sent, so the job fails with what is left. */
  private async abort(broadcastId: string, recipientId: number, detail: string): Promise<void> {
    const now = this.now();
    this.app.log.error({ broadcastId, detail }, 'discord refused the bot token; broadcast stopped');
    await this.db.transaction(async (tx) => {
      await tx
        .update(discordBroadcastRecipients)
        .set({ status: 'failed', reason: 'unauthorized', doneAt: now })
        .where(eq(discordBroadcastRecipients.id, recipientId));
      const rest = await tx
        .update(discordBroadcastRecipients)
        .set({ status: 'failed', reason: 'not_sent', doneAt: now })
        .where(
          and(
            eq(discordBroadcastRecipients.broadcastId, broadcastId),
            eq(discordBroadcastRecipients.status, 'pending'),
          ),
        )
        .returning({ id: discordBroadcastRecipients.id });
      await tx
        .update(discordBroadcasts)
        .set({ failed: sql`${discordBroadcasts.failed} + ${rest.length + 1}` })
        .where(eq(discordBroadcasts.id, broadcastId));
    });
    await this.finish(broadcastId, 'failed', 'Discord refused the bot token (401). Check DISCORD_BOT_TOKEN.');
  }

  private async finish(broadcastId: string, status: 'completed' | 'failed', error: string | null): Promise<void> {
    await this.db
      .update(discordBroadcasts)
      .set({ status, finishedAt: this.now(), leaseUntil: null, lastError: error })
      .where(and(eq(discordBroadcasts.id, broadcastId), eq(discordBroadcasts.status, 'running')));
    this.app.log.info({ broadcastId, status }, 'discord broadcast finished');
    this.finished.emit(broadcastId);
  }
}
