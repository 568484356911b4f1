/**
 * Community wager goals (docs/features/community-goal.md): a goal per partner site, measured on
 * the site's running leaderboard period as the sum of its standings on the code. The leaderboard
 * poller tells this module of every write (a listener registered with
 * `app.leaderboards.onStandingsWritten`, run inside the write's transaction); the progress is
 * stored per period, `reached_at` is set once by a conditional update (whoever writes second sees
 * it set and announces nothing), and the state goes to `/CommunityGoal` after the commit.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { centsToNumber, centsToText, toCents } from '@kickback/common/money';
import { siteById, type SiteId } from '@kickback/common/http/leaderboards';
import {
  goalMessages,
  type AdminCommunityGoal,
  type CommunityGoalBody,
  type CommunityGoalsState,
  type CommunityGoalView,
} from '@kickback/common/http/community-goals';
import { communityGoalHub } from '@kickback/common/hubs/community-goal';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { transactionThen, type AfterCommit } from '../../lib/after-commit';
import { AppError } from '../../lib/errors';
import { recordAudit, type Actor } from '../audit/service';

export const GOAL_ROOM = 'community-goal';

interface GoalRow {
  site: number;
  title: string;
  target: string;
  reward: string;
  active: boolean;
  shown: boolean | null;
  progress: string | null;
  reached_at: Date | string | null;
  period_end: Date | string | null;
}

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

function viewOf(r: GoalRow): CommunityGoalView | null {
  const meta = siteById(r.site);
  if (!meta) return null;
  return {
    site: r.site,
    siteSlug: meta.slug,
    siteName: meta.name,
    title: r.title,
    target: centsToNumber(toCents(r.target)),
    progress: centsToNumber(toCents(r.progress ?? '0')),
    reward: r.reward,
    reachedAt: iso(r.reached_at),
    periodEnd: iso(r.period_end),
  };
}

/** The sum a site ranks on over a period's standings on the code, in hundredths. */
async function periodTotal(tx: DbOrTx, site: SiteId, periodId: number): Promise<bigint> {
  const weighted = siteById(site)?.ranksOn === 'weightedWagered';
  const [row] = rowsOf<{ total: string | null }>(
    await tx.execute(sql`
      SELECT coalesce(sum(${weighted ? sql`coalesce(weighted_wagered, 0)` : sql`wagered`}), 0)::text AS total
      FROM leaderboard_standings WHERE period_id = ${periodId} AND on_code
    `),
  );
  return toCents(row?.total ?? '0');
}

export class CommunityGoalService {
  private version = 0;

  constructor(private readonly app: FastifyInstance) {}

  private async rows(db: DbOrTx, onlyShown: boolean): Promise<GoalRow[]> {
    const now = this.app.clock.now().toISOString();
    return rowsOf<GoalRow>(
      await db.execute(sql`
        SELECT g.site, g.title, g.target::text, g.reward, g.active, s.shown,
               gp.progress::text AS progress, gp.reached_at, p.end_at AS period_end
        FROM community_goals g
        LEFT JOIN leaderboard_sites s ON s.site = g.site
        LEFT JOIN leaderboard_periods p ON p.site = g.site AND p.start_at <= ${now}::timestamptz
             AND p.end_at > ${now}::timestamptz
        LEFT JOIN community_goal_periods gp ON gp.period_id = p.id
        ${onlyShown ? sql`WHERE g.active AND coalesce(s.shown, false)` : sql``}
        ORDER BY g.site
      `),
    );
  }

  /** What the board, the home page and the overlay show: every active goal of a shown site. */
  async state(): Promise<CommunityGoalsState> {
    const goals = (await this.rows(this.app.db, true)).flatMap((r) => viewOf(r) ?? []);
    const now = this.app.clock.now();
    // Grows with every state sent from this process; a client keeps the newest it got.
    this.version = Math.max(this.version + 1, now.getTime());
    return { id: 'community-goal', version: this.version, phaseEndsAt: null, serverTime: now.toISOString(), goals };
  }

  private broadcast(): void {
    void this.state()
      .then((state) => this.app.realtime.emit(communityGoalHub, GOAL_ROOM, 'ReceiveState', state))
      .catch((err: unknown) => this.app.log.error({ err }, 'community goal broadcast failed'));
  }

  /**
   * The standings listener: stores the period's progress for the site's goal and, when it reaches
   * the target for the first time, sets `reached_at` (only where it is still null: two writers
   * cannot both set it) and announces the goal in Kick chat after the commit.
   */
  readonly recordProgress = async (
    tx: DbOrTx,
    written: { site: SiteId; periodId: number; at: Date },
    after: AfterCommit,
  ): Promise<void> => {
    const [goal] = rowsOf<{ active: boolean }>(
      await tx.execute(sql`SELECT active FROM community_goals WHERE site = ${written.site}`),
    );
    if (!goal?.active) return;
    const total = await periodTotal(tx, written.site, written.periodId);
    await tx.execute(sql`
      INSERT INTO community_goal_periods (period_id, site, progress, updated_at)
      VALUES (${written.periodId}, ${written.site}, ${centsToText(total)}::numeric, ${written.at.toISOString()}::timestamptz)
      ON CONFLICT (period_id) DO UPDATE SET progress = EXCLUDED.progress, updated_at = EXCLUDED.updated_at
    `);
    await this.markReached(tx, written.periodId, written.at, after);
    after.push(() => this.broadcast());
  };

  private async markReached(tx: DbOrTx, periodId: number, at: Date, after: AfterCommit): Promise<void> {
    const reached = rowsOf<{ site: number; title: string; reward: string }>(
      await tx.execute(sql`
        UPDATE community_goal_periods gp SET reached_at = ${at.toISOString()}::timestamptz
        FROM community_goals g
        WHERE gp.period_id = ${periodId} AND g.site = gp.site AND g.active
          AND gp.reached_at IS NULL AND gp.progress >= g.target
        RETURNING g.site, g.title, g.reward
      `),
    );
    for (const r of reached) {
      const text = goalMessages.reachedAnnouncement(r.title, siteById(r.site)?.name ?? `Site ${r.site}`, r.reward);
      after.push(() => this.app.chatOut.enqueue({ kind: 'announce', text: text.slice(0, 500) }));
    }
  }

  /** Runs the listener on its own (the race test; an admin's save re-measures the running period). */
  async remeasure(site: SiteId, periodId: number): Promise<void> {
    await transactionThen(this.app.db, (tx, after) =>
      this.recordProgress(tx, { site, periodId, at: this.app.clock.now() }, after),
    );
  }

  async adminList(): Promise<AdminCommunityGoal[]> {
    return (await this.rows(this.app.db, false)).flatMap((r) => {
      const view = viewOf(r);
      return view ? [{ ...view, active: r.active }] : [];
    });
  }

  /** Creates or edits a site's goal, audited; the running period is measured again at once. */
  async save(actor: Actor, site: number, body: CommunityGoalBody): Promise<AdminCommunityGoal[]> {
    const meta = siteById(site);
    if (!meta) throw new AppError(404, goalMessages.unknownSite);
    const now = this.app.clock.now();
    const target = centsToText(toCents(body.target.toFixed(2)));
    await transactionThen(this.app.db, async (tx, after) => {
      const [before] = rowsOf<{ title: string; target: string; reward: string; active: boolean }>(
        await tx.execute(
          sql`SELECT title, target::text, reward, active FROM community_goals WHERE site = ${site} FOR UPDATE`,
        ),
      );
      await tx.execute(sql`
        INSERT INTO community_goals (site, title, target, reward, active, updated_at)
        VALUES (${site}, ${body.title}, ${target}::numeric, ${body.reward}, ${body.active}, ${now.toISOString()}::timestamptz)
        ON CONFLICT (site) DO UPDATE SET title = EXCLUDED.title, target = EXCLUDED.target,
          reward = EXCLUDED.reward, active = EXCLUDED.active, updated_at = EXCLUDED.updated_at
      `);
      await recordAudit(tx, actor, {
        action: 'community-goal.save',
        targetType: 'leaderboard',
        targetId: `${site} ${meta.name}`,
        before: before ?? null,
        after: { title: body.title, target, reward: body.reward, active: body.active },
      });
      const [period] = rowsOf<{ id: string | number }>(
        await tx.execute(sql`
          SELECT id FROM leaderboard_periods
          WHERE site = ${site} AND status = 'open' AND start_at <= ${now.toISOString()}::timestamptz
            AND end_at > ${now.toISOString()}::timestamptz
          FOR UPDATE
        `),
      );
      // Measured (and broadcast) at once; a goal switched off is broadcast gone.
      if (period && body.active) {
        await this.recordProgress(tx, { site: site as SiteId, periodId: Number(period.id), at: now }, after);
      } else {
        after.push(() => this.broadcast());
      }
    });
    return this.adminList();
  }
}
