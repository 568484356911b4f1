/** The one settings row of Discord roles and go-live posts (docs/features/discord-roles.md#settings). */
import { count, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DiscordRoleSettings } from '@kickback/common/http/discord-roles';
import type { DbOrTx } from '../../db/client';
import { currentRules } from './rules';
import { discordGoLivePosts, discordRoleJobs, discordRoleSettings } from '../../db/schema/discord-roles';

export interface RoleSettings {
  guildId: string | null;
  goLiveChannelId: string | null;
  roleIds: Record<string, string>;
}

export async function readRoleSettings(db: DbOrTx): Promise<RoleSettings> {
  const [row] = await db.select().from(discordRoleSettings).where(eq(discordRoleSettings.id, 1));
  return { guildId: row?.guildId ?? null, goLiveChannelId: row?.goLiveChannelId ?? null, roleIds: row?.roleIds ?? {} };
}

export async function saveRoleSettings(db: DbOrTx, settings: RoleSettings, now: Date): Promise<void> {
  const values = { ...settings, lastProblem: null, lastProblemAt: null, updatedAt: now };
  await db
    .insert(discordRoleSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: discordRoleSettings.id, set: values });
}

/** A refusal from Discord that needs the admin (shown on Admin → Integrations until fixed and saved). */
export async function recordProblem(db: DbOrTx, problem: string, now: Date): Promise<void> {
  await db
    .insert(discordRoleSettings)
    .values({ id: 1, lastProblem: problem, lastProblemAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: discordRoleSettings.id, set: { lastProblem: problem, lastProblemAt: now } });
}

export async function presentRoleSettings(app: FastifyInstance): Promise<DiscordRoleSettings> {
  const { db } = app;
  const [row] = await db.select().from(discordRoleSettings).where(eq(discordRoleSettings.id, 1));
  const queue = await db
    .select({ status: discordRoleJobs.status, n: count() })
    .from(discordRoleJobs)
    .where(sql`${discordRoleJobs.status} IN ('pending', 'failed')`)
    .groupBy(discordRoleJobs.status);
  const [post] = await db.select().from(discordGoLivePosts).orderBy(desc(discordGoLivePosts.createdAt)).limit(1);
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  return {
    botMode: app.credentials.discord().bot.mode,
    guildId: row?.guildId ?? null,
    goLiveChannelId: row?.goLiveChannelId ?? null,
    roleIds: row?.roleIds ?? {},
    rules: (await currentRules(db)).map((r) => ({ key: r.key, label: r.label })),
    lastProblem: row?.lastProblem ?? null,
    lastProblemAt: iso(row?.lastProblemAt),
    lastReconcileAt: iso(row?.lastReconcileAt),
    queue: {
      pending: queue.find((q) => q.status === 'pending')?.n ?? 0,
      failed: queue.find((q) => q.status === 'failed')?.n ?? 0,
    },
    lastPost: post
      ? {
          status: post.status,
          title: post.title,
          at: (post.postedAt ?? post.createdAt).toISOString(),
          error: post.lastError,
        }
      : null,
  };
}
