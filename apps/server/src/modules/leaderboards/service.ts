/**
 * The leaderboards service (`app.leaderboards`): the poller that keeps each site's running period
 * fresh and closes finished ones, the cached public boards, and the admin settings.
 *
 * Poll cycle of a site: (1) close every open period that has ended — for partners whose API takes
 * an end date, after one last fetch of the finished window (retried for up to CLOSE_GRACE_MS while
 * the partner fails); (2) open the running period; (3) fetch it and write it. A failed fetch is
 * logged and recorded for the admin page, and the last good standings stay. With several
 * processes, a lease column on the site row gives each cycle to one process; the row lock and
 * watermarks inside the writes keep things right even if two cycles overlap anyway.
 */
import type { PartnersConfig } from '../../config';
import type { FastifyInstance } from 'fastify';
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { centsToNumber, toCents } from '@kickback/common/money';
import {
  siteById,
  type AdminSite,
  type BoardType,
  type LeaderboardResponse,
  type PublicSite,
  type SiteId,
  type SiteSettingsInput,
} from '@kickback/common/http/leaderboards';
import { leaderboardPeriods, leaderboardSites, type LeaderboardPeriodRow } from '../../db/schema/leaderboards';
import { buildPartnerProviders, type PartnerProvider } from '../../integrations/partners/registry';
import type { PlayersMatch } from '../partner-links/service';
import { AppError, badRequest, conflict } from '../../lib/errors';
import { recordAudit, type Actor } from '../audit/service';
import { rowsOf } from '../../db/rows';
import { buildBoard, lastClosedPeriod } from './boards';
import { closePeriod } from './closer';
import { boundaryAfter } from './periods';
import { loadAllSiteSettings, loadSiteSettings, settingsToInput, writeSiteSettings } from './settings';
import {
  ensureCurrentPeriod,
  findCurrentPeriod,
  runningWindow,
  writeStandings,
  type StandingsListener,
} from './standings';
import { errorReason } from '../../lib/error-reason';

export type { StandingsListener } from './standings';

/** Read-cache keys: the list of shown sites, and a site's board (`leaderboard:1:now`). */
export const SITES_READ = 'leaderboard:sites';
/** The public "How to earn points" read (modules/earn) shows each site's points rate. */
const EARN_READ = 'earn';
export const boardKey = (site: SiteId, type: BoardType | '') => `leaderboard:${site}:${type}`;

/** How long a bounded partner may keep failing after a period ended before we freeze what we have. */
export const CLOSE_GRACE_MS = 30 * 60_000;
/** A cycle's claim on a site; long enough for any fetch (15 s timeout) and write. */
const LEASE_MS = 5 * 60_000;
/** Since-only partners (Clash, Cases) are fetched once more this long before a period ends. */
const LAST_CALL_MS = 20_000;

export interface CycleReport {
  site: SiteId;
  fetched: boolean;
  players: number;
  error: string | null;
  closed: number;
}

function errorText(err: unknown): string {
  return errorReason(err);
}

/** What a module registered to hear of a standings refresh is told (the milestone ladder). */
export interface StandingsRefreshed {
  site: SiteId;
  periodId: number;
  at: Date;
  /** The poll's players matched to links, reusable for exactly these players (partner-links/matching). */
  match: PlayersMatch | null;
}

export class LeaderboardService {
  private built: { partners: PartnersConfig; providers: Partial<Record<SiteId, PartnerProvider>> } | null = null;
  /** Drops the cached public boards of a site (all sites without one) on every process. */
  readonly cache = {
    invalidate: (site?: SiteId): void =>
      this.app.reads.invalidate(site === undefined ? 'leaderboard:' : boardKey(site, '')),
  };
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private readonly running = new Map<SiteId, Promise<CycleReport>>();
  private readonly abort = new AbortController();
  private readonly refreshListeners = new Set<(refresh: StandingsRefreshed) => Promise<void>>();
  private readonly standingsListeners: StandingsListener[] = [];

  constructor(private readonly app: FastifyInstance) {}

  /**
   * Adds a listener told of every fetch written into a period, inside the write's transaction
   * (standings.ts): what it changes commits with the standings, once.
   */
  onStandingsWritten(listener: StandingsListener): void {
    this.standingsListeners.push(listener);
  }

  /** The adapters as the credentials are now (rebuilt when a key changes on Admin → Settings). */
  get providers(): Partial<Record<SiteId, PartnerProvider>> {
    const partners = this.app.credentials.partners();
    if (this.built?.partners !== partners) {
      this.built = { partners, providers: buildPartnerProviders(partners, this.app.http) };
    }
    return this.built.providers;
  }

  private get db() {
    return this.app.db;
  }

  private get now(): Date {
    return this.app.clock.now();
  }

  /**
   * Runs `listener` after each poll wrote new standings, in the polling process (a module
   * registers into the poller; the poller imports none of them). A listener's failure is logged
   * and does not fail the poll.
   */
  onStandingsRefreshed(listener: (refresh: StandingsRefreshed) => Promise<void>): void {
    this.refreshListeners.add(listener);
  }

  private async refreshed(refresh: StandingsRefreshed): Promise<void> {
    for (const listener of this.refreshListeners) {
      try {
        await listener(refresh);
      } catch (err) {
        this.app.log.error({ site: refresh.site, err }, 'a standings refresh listener failed');
      }
    }
  }

  providerMode(site: SiteId): 'partner' | 'simulator' | 'none' {
    return this.providers[site]?.mode ?? 'none';
  }

  // --- Public --------------------------------------------------------------------------------

  async publicSites(): Promise<PublicSite[]> {
    const all = await loadAllSiteSettings(this.db);
    return all
      .filter((s) => s.shown)
      .flatMap((s) => {
        const meta = siteById(s.site);
        if (!meta) return [];
        return [
          {
            id: s.site,
            slug: meta.slug,
            name: meta.name,
            codes: s.codes,
            referralUrl: s.referralUrl,
            rewardUnit: s.rewardUnit,
          },
        ];
      });
  }

  /** A shown site's board built from the database; null for a hidden site (routes cache it). */
  async board(site: SiteId, type: BoardType): Promise<LeaderboardResponse | null> {
    const now = this.now;
    const [row] = await this.db
      .select({ shown: leaderboardSites.shown })
      .from(leaderboardSites)
      .where(eq(leaderboardSites.site, site));
    return row?.shown ? buildBoard(this.db, site, type, now) : null;
  }

  // --- Poller --------------------------------------------------------------------------------

  start(): void {
    if (this.timer) return;
    const tickMs = Math.min(15_000, this.app.config.leaderboards.pollSeconds * 1000);
    this.timer = setInterval(() => void this.tick(), tickMs);
    this.timer.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.abort.abort();
    await this.ticking?.catch(() => undefined);
    await Promise.allSettled([...this.running.values()]);
  }

  private tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = this.pollDue()
      .then(() => undefined)
      .catch((err: unknown) => this.app.log.error({ err }, 'leaderboard poller tick failed'))
      .finally(() => {
        this.ticking = null;
      });
    return this.ticking;
  }

  /** Claims the sites whose poll is due (and not held by another process) and runs their cycles. */
  async pollDue(): Promise<CycleReport[]> {
    const now = this.now;
    const claimed = rowsOf<{ site: number }>(
      await this.db.execute(sql`
        UPDATE leaderboard_sites SET lease_until = ${new Date(now.getTime() + LEASE_MS).toISOString()}::timestamptz
        WHERE next_poll_at <= ${now.toISOString()}::timestamptz
          AND (lease_until IS NULL OR lease_until <= ${now.toISOString()}::timestamptz)
        RETURNING site
      `),
    );
    const reports: CycleReport[] = [];
    for (const { site } of claimed.sort((a, b) => a.site - b.site)) {
      if (this.abort.signal.aborted) break;
      reports.push(await this.cycleOnce(site as SiteId));
    }
    return reports;
  }

  /** Admin "Refresh now": runs a cycle at once unless one is under way here or elsewhere. */
  async refreshNow(site: SiteId): Promise<CycleReport> {
    if (this.running.has(site)) throw conflict('A refresh of this board is already running.');
    const now = this.now;
    const claimed = rowsOf<{ site: number }>(
      await this.db.execute(sql`
        UPDATE leaderboard_sites SET lease_until = ${new Date(now.getTime() + LEASE_MS).toISOString()}::timestamptz
        WHERE site = ${site} AND (lease_until IS NULL OR lease_until <= ${now.toISOString()}::timestamptz)
        RETURNING site
      `),
    );
    if (claimed.length === 0) throw conflict('A refresh of this board is already running.');
    return this.cycleOnce(site);
  }

  /** One cycle for a site in this process (joins one already running), then releases the lease. */
  cycleOnce(site: SiteId): Promise<CycleReport> {
    const existing = this.running.get(site);
    if (existing) return existing;
    const run = this.runCycle(site).finally(() => this.running.delete(site));
    this.running.set(site, run);
    return run;
  }

  /**
   * Closes what ended, opens the running period and fetches it. Exposed for tests, which drive
   * cycles by hand with a fixed clock (and may run two at once to check overlap safety).
   */
  async runCycle(site: SiteId): Promise<CycleReport> {
    const now = this.now;
    const provider = this.providers[site];
    const report: CycleReport = { site, fetched: false, players: 0, error: null, closed: 0 };
    let retrySoon = false;
    try {
      const ended = await this.db
        .select()
        .from(leaderboardPeriods)
        .where(
          and(
            eq(leaderboardPeriods.site, site),
            eq(leaderboardPeriods.status, 'open'),
            lte(leaderboardPeriods.endAt, now),
          ),
        )
        .orderBy(asc(leaderboardPeriods.endAt));
      for (const period of ended) {
        if (provider?.adapter.window === 'bounded') {
          const ok = await this.fetchInto(site, provider, period, now, report);
          if (!ok && now.getTime() < period.endAt.getTime() + CLOSE_GRACE_MS) {
            retrySoon = true;
            break;
          }
        }
        const outcome = await closePeriod(this.db, period.id, now);
        if (outcome.closed) {
          report.closed += 1;
          this.app.log.info(
            { site, periodStart: period.startAt.toISOString(), ranked: outcome.ranked, prizes: outcome.prizesQueued },
            'leaderboard period closed',
          );
        }
        this.cache.invalidate(site);
      }

      const settings = await loadSiteSettings(this.db, site);
      const current = await ensureCurrentPeriod(this.db, settings, now);
      if (provider) {
        report.error = null;
        await this.fetchInto(site, provider, current, now, report);
      }
      await this.schedule(site, provider, current, now, retrySoon);
    } catch (err) {
      report.error = errorText(err);
      this.app.log.error({ site, err }, 'leaderboard cycle failed');
      await this.release(site, new Date(now.getTime() + 60_000)).catch(() => undefined);
    }
    return report;
  }

  private async fetchInto(
    site: SiteId,
    provider: PartnerProvider,
    period: LeaderboardPeriodRow,
    now: Date,
    report: CycleReport,
  ): Promise<boolean> {
    try {
      const standings = await provider.adapter.fetchStandings(
        { start: period.startAt, end: period.endAt, now },
        this.abort.signal,
      );
      const written = performance.now();
      const outcome = await writeStandings(this.db, period.id, standings, now, this.standingsListeners);
      this.app.log.debug(
        { site, players: standings.length, ms: Math.round(performance.now() - written) },
        'leaderboard standings written',
      );
      await this.db.update(leaderboardSites).set({ lastSuccessAt: now }).where(eq(leaderboardSites.site, site));
      if (outcome.written) {
        report.fetched = true;
        report.players = outcome.players;
      }
      this.cache.invalidate(site);
      if (outcome.written) await this.refreshed({ site, periodId: period.id, at: now, match: outcome.match });
      return true;
    } catch (err) {
      const message = errorText(err);
      report.error = message;
      this.app.log.warn(
        { site, partner: siteById(site)?.name, periodStart: period.startAt.toISOString(), error: message },
        'leaderboard fetch failed; keeping the last good standings',
      );
      await this.db
        .update(leaderboardSites)
        .set({ lastError: message, lastErrorAt: now })
        .where(eq(leaderboardSites.site, site))
        .catch(() => undefined);
      return false;
    }
  }

  private async schedule(
    site: SiteId,
    provider: PartnerProvider | undefined,
    current: LeaderboardPeriodRow,
    now: Date,
    retrySoon: boolean,
  ): Promise<void> {
    const intervalMs =
      Math.max(this.app.config.leaderboards.pollSeconds, provider?.adapter.minIntervalSeconds ?? 0) * 1000;
    const t = now.getTime();
    const end = current.endAt.getTime();
    let next = t + intervalMs;
    if (provider?.adapter.window === 'since' && end - LAST_CALL_MS > t + 1000)
      next = Math.min(next, end - LAST_CALL_MS);
    next = Math.min(next, end + 5000);
    if (retrySoon) next = Math.min(next, t + Math.max(60_000, (provider?.adapter.minIntervalSeconds ?? 0) * 1000));
    await this.release(site, new Date(next));
  }

  private async release(site: SiteId, nextPollAt: Date): Promise<void> {
    await this.db.update(leaderboardSites).set({ leaseUntil: null, nextPollAt }).where(eq(leaderboardSites.site, site));
  }

  // --- Admin ---------------------------------------------------------------------------------

  async adminOverview(): Promise<AdminSite[]> {
    const now = this.now;
    const rows = await this.db.select().from(leaderboardSites).orderBy(asc(leaderboardSites.site));
    const all = await loadAllSiteSettings(this.db);
    const out: AdminSite[] = [];
    for (const settings of all) {
      const meta = siteById(settings.site);
      const row = rows.find((r) => r.site === settings.site);
      if (!meta || !row) continue;
      const current = await findCurrentPeriod(this.db, settings.site, now);
      const window = await runningWindow(this.db, settings, now);
      const players = current
        ? rowsOf<{ n: number | string }>(
            await this.db.execute(sql`SELECT count(*) AS n FROM leaderboard_standings WHERE period_id = ${current.id}`),
          )[0]?.n
        : 0;
      out.push({
        id: settings.site,
        slug: meta.slug,
        name: meta.name,
        codeCount: meta.codeCount,
        linkField: meta.linkField,
        settings: settingsToInput(settings),
        provider: this.providerMode(settings.site),
        status: {
          lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
          lastErrorAt: row.lastErrorAt?.toISOString() ?? null,
          lastError: row.lastError,
          nextPollAt: Number.isFinite(row.nextPollAt.getTime()) ? row.nextPollAt.toISOString() : null,
          players: Number(players ?? 0),
        },
        current: { startDate: window.start.toISOString(), endDate: window.end.toISOString() },
        lastClosed: await this.lastClosedSummary(settings.site, Math.max(10, settings.rewards.length)),
      });
    }
    return out;
  }

  private async lastClosedSummary(site: SiteId, limit: number): Promise<AdminSite['lastClosed']> {
    const period = await lastClosedPeriod(this.db, site);
    if (!period) return null;
    const rows = rowsOf<{
      rank: number;
      username: string;
      ranked_amount: string;
      is_active: boolean;
      reward: string | null;
      reward_bonus: string | null;
      linked: string | null;
      fulfilment_id: string | number | null;
    }>(
      await this.db.execute(sql`
        SELECT r.rank, r.username, r.ranked_amount::text, r.is_active, r.reward::text, r.reward_bonus::text,
               u.username AS linked, r.fulfilment_id
        FROM leaderboard_results r LEFT JOIN users u ON u.id = r.user_id
        WHERE r.period_id = ${period.id}
        ORDER BY r.rank LIMIT ${limit}
      `),
    );
    return {
      startDate: period.startAt.toISOString(),
      endDate: period.endAt.toISOString(),
      closedAt: (period.closedAt ?? period.endAt).toISOString(),
      results: rows.map((r) => ({
        rank: r.rank,
        userName: r.username,
        wageredAmount: centsToNumber(toCents(r.ranked_amount)),
        isActive: r.is_active,
        reward: r.reward === null ? null : centsToNumber(toCents(r.reward)),
        rewardBonus: r.reward_bonus === null ? null : centsToNumber(toCents(r.reward_bonus)),
        linkedUser: r.linked,
        fulfilmentId: r.fulfilment_id === null ? null : Number(r.fulfilment_id),
      })),
    };
  }

  /**
   * Saves a site's settings, audited in the same transaction. A new schedule also moves the
   * running period's end to the new schedule's next boundary (its start, and so its standings and
   * wager watermarks, stay as they are).
   */
  async updateSettings(actor: Actor, site: SiteId, input: SiteSettingsInput): Promise<void> {
    const meta = siteById(site);
    if (!meta) throw new AppError(404, 'Not found.');
    if (input.codes.length > meta.codeCount) {
      throw badRequest(`${meta.name} takes ${meta.codeCount === 1 ? 'one code' : 'at most two codes'}.`);
    }
    const now = this.now;
    await this.db.transaction(async (tx) => {
      const before = await loadSiteSettings(tx, site, true);
      await writeSiteSettings(tx, site, input, now);
      const after = await loadSiteSettings(tx, site);
      const scheduleChanged =
        before.schedule.anchor.getTime() !== after.schedule.anchor.getTime() ||
        before.schedule.days !== after.schedule.days;
      if (scheduleChanged) {
        const current = await findCurrentPeriod(tx, site, now);
        if (current && current.status === 'open') {
          await tx
            .update(leaderboardPeriods)
            .set({ endAt: boundaryAfter(after.schedule, now) })
            .where(eq(leaderboardPeriods.id, current.id));
        }
        await tx.update(leaderboardSites).set({ nextPollAt: now }).where(eq(leaderboardSites.site, site));
      }
      await recordAudit(tx, actor, {
        action: 'leaderboard.settings',
        targetType: 'leaderboard',
        targetId: `${site} ${meta.name}`,
        before: settingsToInput(before),
        after: settingsToInput(after),
      });
    });
    this.cache.invalidate(site);
    this.app.reads.invalidate(SITES_READ);
    this.app.reads.invalidate(EARN_READ);
  }

  /** The shown sites whose wagering under the code pays points, with the rate (for "How to earn points"). */
  async wagerPointRates(): Promise<
    { site: SiteId; name: string; pointsPerUnit: number; codes: string[]; referralUrl: string | null }[]
  > {
    const all = await loadAllSiteSettings(this.db);
    return all.flatMap((s) => {
      const meta = siteById(s.site);
      if (!meta || !s.shown || s.pointsPerUnit <= 0n) return [];
      return [
        {
          site: s.site,
          name: meta.name,
          pointsPerUnit: centsToNumber(s.pointsPerUnit),
          codes: s.codes,
          referralUrl: s.referralUrl,
        },
      ];
    });
  }
}
