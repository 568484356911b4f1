/**
 * The role queue (docs/features/discord-roles.md#the-queue): one pending job per Discord account,
 * "make this account's managed roles match the rules". Any process may work it: a job is claimed
 * with a lease on its row (`FOR UPDATE SKIP LOCKED`, and only once a previous lease ran out), so two
 * processes never apply the same account's roles and a job whose process died is taken over when its
 * lease ends. The client waits out Discord's 429s (`retry_after`); a 403 (no Manage Roles, a role
 * above the bot's) fails the job without retrying and is shown on Admin → Integrations; a network
 * or 5xx failure is tried again later, a few times.
 *
 * What fills the queue: the sweep (every minute, right after a subscription event, and when the
 * next known subscription ends) compares what the rules want now with what was last aimed at; the
 * reconcile (once a day, or from the page) queues every linked account to be compared with the roles
 * Discord actually shows.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { discordRoleJobs, discordRoleMembers, discordRoleSettings } from '../../db/schema/discord-roles';
import { GuildCallFailed, type DiscordGuildClient } from '../../integrations/discord/guild';
import { currentRules, desiredRoles, managedRoles, memberFacts, nextLapse } from './rules';
import { readRoleSettings, recordProblem, type RoleSettings } from './settings';

export const ROLE_LEASE_MS = 2 * 60_000;
const POLL_MS = 5000;
export const SWEEP_MS = 60_000;
const RECONCILE_EVERY_MS = 24 * 60 * 60_000;
const MAX_ATTEMPTS = 6;
const BATCH = 500;

interface ClaimedJob {
  id: number;
  discord_id: string;
  reconcile: boolean;
  attempts: number;
}

export const forbiddenProblem = (detail: string) =>
  `Discord refused to change a role (${detail}). The bot needs the Manage Roles permission, and its own role must be above the roles it gives (Server Settings → Roles: drag the bot's role above them). Fix it, then save or reconcile.`;

export class RoleWorker {
  private poll: NodeJS.Timeout | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private lapse: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly app: FastifyInstance,
    readonly client: () => DiscordGuildClient | null,
    private readonly pollMs = POLL_MS,
  ) {}

  private get db(): Db {
    return this.app.db;
  }

  private now(): Date {
    return this.app.clock.now();
  }

  start(): void {
    if (this.poll) return;
    this.stopped = false;
    this.poll = setInterval(() => void this.kick(), this.pollMs);
    this.poll.unref();
    this.sweeper = setInterval(() => void this.tick(), SWEEP_MS);
    this.sweeper.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of [this.poll, this.sweeper, this.lapse]) if (t) clearInterval(t);
    this.poll = this.sweeper = this.lapse = null;
    await this.running;
  }

  private async tick(): Promise<void> {
    try {
      await this.reconcileIfDue();
      await this.sweepSoon();
    } catch (err) {
      this.app.log.error({ err }, 'discord role sweep failed');
    }
  }

  /**
   * Sweeps now, then works the queue (after a subscription event, a save, a subscription's end).
   * Its callers fire it and forget it, so it never rejects: a failure is logged and the next
   * sweep tries again — an unhandled rejection would end the process
   * (docs/features/discord-roles.md#the-queue).
   */
  async sweepSoon(): Promise<void> {
    if (this.stopped || !this.client()) return;
    try {
      await this.sweep();
      await this.kick();
    } catch (err) {
      this.app.log.error({ err }, 'discord role sweep failed');
    }
  }

  /**
   * Queues every linked account (and every account that holds managed roles) whose wanted roles
   * differ from those last aimed at; then sets a timer for the next subscription's end.
   */
  async sweep(): Promise<number> {
    const settings = await readRoleSettings(this.db);
    if (!settings.guildId || managedRoles(settings.roleIds).length === 0) return 0;
    const now = this.now();
    const facts = await memberFacts(this.db, now);
    const rules = await currentRules(this.db);
    const known = await this.db
      .select({ discordId: discordRoleMembers.discordId, desired: discordRoleMembers.desired })
      .from(discordRoleMembers);
    const last = new Map(known.map((k) => [k.discordId, k.desired.slice().sort().join(',')]));
    const changed: string[] = [];
    for (const id of new Set([...facts.keys(), ...last.keys()])) {
      const want = desiredRoles(facts.get(id) ?? null, settings.roleIds, rules).join(',');
      if (want !== (last.get(id) ?? '')) changed.push(id);
    }
    await this.enqueue(changed, false);
    this.armLapse(await nextLapse(this.db, now));
    return changed.length;
  }

  private armLapse(at: Date | null): void {
    if (this.lapse) clearTimeout(this.lapse);
    this.lapse = null;
    if (!at || this.stopped) return;
    const wait = at.getTime() - this.now().getTime() + 250;
    if (wait > SWEEP_MS) return;
    this.lapse = setTimeout(() => void this.sweepSoon(), Math.max(0, wait));
    this.lapse.unref();
  }

  /** Queues these accounts (one pending job each; a reconcile asked for stays asked for). */
  async enqueue(discordIds: string[], reconcile: boolean): Promise<void> {
    const now = this.now();
    for (let i = 0; i < discordIds.length; i += BATCH) {
      const part = discordIds.slice(i, i + BATCH);
      await this.db
        .insert(discordRoleJobs)
        .values(part.map((discordId) => ({ discordId, reconcile, notBefore: now, createdAt: now })))
        .onConflictDoUpdate({
          target: discordRoleJobs.discordId,
          targetWhere: sql`status = 'pending'`,
          set: { reconcile: sql`${discordRoleJobs.reconcile} OR excluded.reconcile` },
        });
    }
  }

  /** Queues every linked account and every account holding managed roles, to be read from Discord. */
  async reconcileAll(): Promise<number> {
    const settings = await readRoleSettings(this.db);
    if (!settings.guildId) return 0;
    const facts = await memberFacts(this.db, this.now());
    const known = await this.db.select({ discordId: discordRoleMembers.discordId }).from(discordRoleMembers);
    const ids = [...new Set([...facts.keys(), ...known.map((k) => k.discordId)])];
    await this.enqueue(ids, true);
    await this.db.update(discordRoleSettings).set({ lastReconcileAt: this.now() }).where(eq(discordRoleSettings.id, 1));
    return ids.length;
  }

  /** The nightly reconcile: one process takes the day's turn (the settings row's timestamp). */
  async reconcileIfDue(): Promise<boolean> {
    const now = this.now();
    const due = new Date(now.getTime() - RECONCILE_EVERY_MS).toISOString();
    const taken = await this.db
      .update(discordRoleSettings)
      .set({ lastReconcileAt: now })
      .where(
        and(
          eq(discordRoleSettings.id, 1),
          sql`${discordRoleSettings.guildId} IS NOT NULL`,
          sql`(${discordRoleSettings.lastReconcileAt} IS NULL OR ${discordRoleSettings.lastReconcileAt} <= ${due}::timestamptz)`,
        ),
      )
      .returning({ id: discordRoleSettings.id });
    if (taken.length === 0) return false;
    await this.reconcileAll();
    return true;
  }

  /** Works the queue now; joins a pass under way, which then looks again. */
  kick(): Promise<void> {
    if (!this.client() || this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.app.log.error({ err }, 'discord role worker failed'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
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

  /** Takes the next due job whose lease (if any) ran out; nobody else can take it until ours does. */
  async claim(): Promise<ClaimedJob | null> {
    const now = this.now().toISOString();
    const until = new Date(this.now().getTime() + ROLE_LEASE_MS).toISOString();
    const [job] = rowsOf<ClaimedJob>(
      await this.db.execute(sql`
        UPDATE discord_role_jobs SET lease_until = ${until}::timestamptz, attempts = attempts + 1
        WHERE id = (
          SELECT id FROM discord_role_jobs
          WHERE status = 'pending' AND not_before <= ${now}::timestamptz
            AND (lease_until IS NULL OR lease_until <= ${now}::timestamptz)
          ORDER BY not_before, id LIMIT 1
          FOR UPDATE SKIP LOCKED
        )
        RETURNING id, discord_id, reconcile, attempts
      `),
    );
    return job ?? null;
  }

  private async process(job: ClaimedJob): Promise<void> {
    const client = this.client();
    if (!client) return this.release(job.id, this.now());
    const settings = await readRoleSettings(this.db);
    const managed = managedRoles(settings.roleIds);
    if (!settings.guildId || managed.length === 0) return this.finish(job.id, 'done', 'not configured');
    const facts = (await memberFacts(this.db, this.now(), [job.discord_id])).get(job.discord_id) ?? null;
    const desired = desiredRoles(facts, settings.roleIds, await currentRules(this.db));
    try {
      const applied = await this.apply(client, settings, job, desired, managed);
      await this.remember(job.discord_id, desired, applied ?? [], applied === null ? 'not in the server' : null);
      await this.finish(job.id, 'done', applied === null ? 'not in the server' : null);
    } catch (err) {
      await this.failed(job, desired, err);
    }
  }

  /** The managed roles the account has once done; null when it is not in the server. */
  private async apply(
    client: DiscordGuildClient,
    settings: RoleSettings,
    job: ClaimedJob,
    desired: string[],
    managed: string[],
  ): Promise<string[] | null> {
    const guildId = settings.guildId!;
    let actual: string[];
    if (job.reconcile) {
      const roles = await client.memberRoles(guildId, job.discord_id);
      if (roles === null) return null;
      actual = roles.filter((r) => managed.includes(r));
    } else {
      const [row] = await this.db
        .select({ applied: discordRoleMembers.applied })
        .from(discordRoleMembers)
        .where(eq(discordRoleMembers.discordId, job.discord_id));
      actual = (row?.applied ?? []).filter((r) => managed.includes(r));
    }
    const have = new Set(actual);
    try {
      for (const role of desired) {
        if (have.has(role)) continue;
        await client.addRole(guildId, job.discord_id, role);
        have.add(role);
      }
      for (const role of actual) {
        if (desired.includes(role)) continue;
        await client.removeRole(guildId, job.discord_id, role);
        have.delete(role);
      }
    } catch (err) {
      if (err instanceof GuildCallFailed && err.kind === 'not_found' && err.code === 10007) return null;
      throw err;
    }
    return [...have].sort();
  }

  private async failed(job: ClaimedJob, desired: string[], err: unknown): Promise<void> {
    const now = this.now();
    const call = err instanceof GuildCallFailed ? err : new GuildCallFailed('error', String(err), null);
    if (call.kind === 'forbidden' || call.kind === 'unauthorized' || call.kind === 'not_found') {
      // Asking again changes nothing until the admin fixes it; Discord bans bots that pile up 403s.
      const problem =
        call.kind === 'forbidden'
          ? forbiddenProblem(call.detail)
          : call.kind === 'unauthorized'
            ? `Discord refused the bot token (${call.detail}). Check DISCORD_BOT_TOKEN.`
            : `Discord does not know the server or a role (${call.detail}). Check the ids on this page.`;
      await recordProblem(this.db, problem, now);
      await this.remember(job.discord_id, desired, null, call.detail);
      await this.finish(job.id, 'failed', call.detail);
      this.app.log.warn({ discordId: job.discord_id, detail: call.detail }, 'discord role change refused');
      return;
    }
    if (job.attempts >= MAX_ATTEMPTS) {
      await this.remember(job.discord_id, desired, null, call.detail);
      await this.finish(job.id, 'failed', call.detail);
      return;
    }
    const later = new Date(now.getTime() + Math.min(3_600_000, 30_000 * 2 ** (job.attempts - 1)));
    await this.db
      .update(discordRoleJobs)
      .set({ leaseUntil: null, notBefore: later, lastError: call.detail })
      .where(eq(discordRoleJobs.id, job.id));
  }

  private async release(jobId: number, notBefore: Date): Promise<void> {
    await this.db.update(discordRoleJobs).set({ leaseUntil: null, notBefore }).where(eq(discordRoleJobs.id, jobId));
  }

  /** What was aimed at (the sweep compares with it) and what is applied (null: unchanged). */
  private async remember(discordId: string, desired: string[], applied: string[] | null, note: string | null) {
    const now = this.now();
    const set = { desired, ...(applied ? { applied } : {}), note, syncedAt: now };
    await this.db
      .insert(discordRoleMembers)
      .values({ discordId, desired, applied: applied ?? [], note, syncedAt: now })
      .onConflictDoUpdate({ target: discordRoleMembers.discordId, set });
  }

  private async finish(jobId: number, status: 'done' | 'failed', note: string | null): Promise<void> {
    await this.db
      .update(discordRoleJobs)
      .set({ status, leaseUntil: null, doneAt: this.now(), lastError: note })
      .where(and(eq(discordRoleJobs.id, jobId), eq(discordRoleJobs.status, 'pending')));
  }

  /** Jobs of these accounts (tests). */
  async jobsOf(discordIds: string[]) {
    return this.db.select().from(discordRoleJobs).where(inArray(discordRoleJobs.discordId, discordIds));
  }
}
