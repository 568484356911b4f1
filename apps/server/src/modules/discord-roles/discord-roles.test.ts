/**
 * Discord roles and go-live posts (docs/features/discord-roles.md) against the Discord simulator,
 * through the real adapter: the rules (a milestone tier among them), Discord's 429 and 403 answers, the reconcile, the check, and
 * the go-live post once per stream.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DiscordRoleCheck, DiscordRoleSettings } from '@kickback/common/http/discord-roles';
import { partnerLinks } from '../../db/schema/partner-links';
import { discordGoLivePosts } from '../../db/schema/discord-roles';
import { milestoneLadders, milestoneProgress, milestoneTiers } from '../../db/schema/milestones';
import { SIM_CHANNEL_ID, SIM_GUILD_ID, SIM_ROLES } from '../../integrations/discord/simulator/guild-state';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { linkedUser } from '../../../test/discord';
import { linkKick } from '../../../test/kick';
import { deliver, giftsPayload, person } from '../../../test/support';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

const role = (name: string) => SIM_ROLES.find((r) => r.name === name)!.id;
export const ROLES = {
  linked: role('Linked'),
  subscriber: role('Subscriber'),
  vip: role('VIP'),
  'code:clash': role('Code user'),
};

let t: TestApp;
let admin: TestUser;
beforeAll(warmUp, WARM_UP_TIMEOUT);
beforeEach(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin' });
});
afterEach(async () => t.close());

const guild = (app: TestApp = t) => app.app.discordSimulator!.guild;

async function configure(app: TestApp = t, as: TestUser = admin, extra: Record<string, unknown> = {}) {
  const res = await app.call({
    method: 'PUT',
    url: '/api/admin/discord-roles',
    as,
    body: { guildId: SIM_GUILD_ID, goLiveChannelId: SIM_CHANNEL_ID, roleIds: ROLES, ...extra },
  });
  expect(res.statusCode, res.body).toBe(200);
  await settle(app);
}

/** Sweeps and works the queue until nothing is left to do. */
export async function settle(app: TestApp = t): Promise<void> {
  const { worker } = app.app.discordRoles;
  for (let i = 0; i < 3; i += 1) {
    await worker.sweep();
    await worker.kick();
  }
}

let kickSeq = 0;
async function member(name: string) {
  const u = await linkedUser(t, name);
  kickSeq += 1;
  const kickId = String(9_100_000 + kickSeq);
  await linkKick(t, u, { kickId, kickUsername: name.toLowerCase() });
  return { ...u, kickId };
}

describe('role rules', () => {
  it('gives the linked and code-user roles, a gifter the subscriber role until the gift ends', async () => {
    await configure();
    const ann = await member('AnnRoles');
    await t.database.db.insert(partnerLinks).values({
      userId: ann.user.id,
      field: 'clashId',
      value: 'ann1',
      nameKey: 'ann1',
      state: 'verified',
      claimedAt: t.clock.now(),
    });
    await settle();
    expect(guild().rolesOf(ann.discordId).sort()).toEqual([ROLES.linked, ROLES['code:clash']].sort());

    // A gift of two subs: the gifter holds the subscriber role while the gifted subs run.
    const gift = giftsPayload(person(ann.kickId, 'annroles'), [person('5550001', 'g1'), person('5550002', 'g2')]);
    gift.expires_at = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    expect((await deliver(t, 'channel.subscription.gifts', gift)).statusCode).toBe(200);
    await settle();
    expect(guild().rolesOf(ann.discordId)).toContain(ROLES.subscriber);

    t.clock.advance(3_600_000 + 1000);
    await settle();
    expect(guild().rolesOf(ann.discordId)).not.toContain(ROLES.subscriber);
    expect(guild().rolesOf(ann.discordId)).toContain(ROLES.linked);
  });

  it('gives VIP from the Kick badge and takes every managed role when Discord is unlinked', async () => {
    await configure();
    const vic = await member('VicRoles');
    await t.app.chat.process(
      {
        messageId: `vip-${vic.kickId}`,
        kickUserId: vic.kickId,
        kickUsername: 'vicroles',
        color: null,
        isSubscriber: false,
        badges: ['vip'],
        content: 'hi',
        sentAt: t.clock.now(),
      },
      'kick-webhook',
    );
    await settle();
    expect(guild().rolesOf(vic.discordId).sort()).toEqual([ROLES.linked, ROLES.vip].sort());
    const unlink = await t.call({ url: '/api/User/unlink?type=discord', as: vic });
    expect(unlink.statusCode).toBe(200);
    await settle();
    expect(guild().rolesOf(vic.discordId)).toEqual([]);
  });
});

describe('a sweep that fails', () => {
  it('is logged, never thrown at its caller: the subscription-end timer and the routes fire it and forget it', async () => {
    await configure();
    const { worker } = t.app.discordRoles;
    vi.spyOn(worker, 'sweep').mockRejectedValueOnce(new Error('connection lost'));
    const logged = vi.spyOn(t.app.log, 'error');
    await expect(worker.sweepSoon()).resolves.toBeUndefined();
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error) }),
      'discord role sweep failed',
    );
  });
});

describe("Discord's answers", () => {
  it('waits out a 429 (retry_after) and applies the role', async () => {
    guild().rateLimitEvery = 2;
    await configure();
    const a = await member('RateA');
    const b = await member('RateB');
    await settle();
    expect(guild().rateLimited).toBeGreaterThan(0);
    expect(guild().rolesOf(a.discordId)).toEqual([ROLES.linked]);
    expect(guild().rolesOf(b.discordId)).toEqual([ROLES.linked]);
  });

  it('fails a 403 without retrying it and shows it on Integrations', async () => {
    guild().setBotPosition(1); // below every role it gives
    await configure();
    const m = await member('Forbidden');
    await settle();
    expect(guild().rolesOf(m.discordId)).toEqual([]);
    expect(guild().forbidden).toBe(1);
    const [job] = await t.app.discordRoles.worker.jobsOf([m.discordId]);
    expect(job).toMatchObject({ status: 'failed' });
    const view = (await t.call({ url: '/api/admin/discord-roles', as: admin })).json<DiscordRoleSettings>();
    expect(view.lastProblem).toMatch(/must be above the roles it gives/);
    expect(view.queue.failed).toBe(1);
    // Nothing asks Discord again until the admin fixes it.
    t.clock.advance(10 * 60_000);
    await settle();
    expect(guild().forbidden).toBe(1);
    // Fixed in Discord, saved again: the reconcile gives the role.
    guild().setBotPosition(10);
    await configure();
    await t.call({ method: 'POST', url: '/api/admin/discord-roles/reconcile', as: admin });
    await settle();
    expect(guild().rolesOf(m.discordId)).toEqual([ROLES.linked]);
  });
});

describe('the reconcile', () => {
  it('repairs roles changed in Discord by hand, and leaves roles it does not manage alone', async () => {
    await configure();
    const m = await member('Drift');
    const other = await linkedUser(t, 'NoKick'); // Discord linked, Kick not
    await settle();
    expect(guild().rolesOf(m.discordId)).toEqual([ROLES.linked]);
    const moderators = role('Moderators');
    guild().setRolesOf(m.discordId, [moderators]);
    guild().setRolesOf(other.discordId, [ROLES.linked]);
    // The sweep trusts what it applied: only the reconcile reads Discord.
    await settle();
    expect(guild().rolesOf(m.discordId)).toEqual([moderators]);
    const res = await t.call({ method: 'POST', url: '/api/admin/discord-roles/reconcile', as: admin });
    expect(res.statusCode).toBe(200);
    await settle();
    expect(guild().rolesOf(m.discordId).sort()).toEqual([moderators, ROLES.linked].sort());
    expect(guild().rolesOf(other.discordId)).toEqual([]);
  });

  it('runs once a day, in one process', async () => {
    const { worker } = t.app.discordRoles;
    // The worker's own minute sweep would take the day's reconcile if it came round meanwhile.
    await worker.stop();
    await configure();
    expect(await worker.reconcileIfDue()).toBe(true);
    expect(await worker.reconcileIfDue()).toBe(false);
    t.clock.advance(24 * 60 * 60_000);
    expect(await worker.reconcileIfDue()).toBe(true);
  });
});

describe('the check on Integrations', () => {
  it("says what is missing: the server, Manage Roles, a role above the bot's", async () => {
    const check = async () =>
      (await t.call({ method: 'POST', url: '/api/admin/discord-roles/check', as: admin })).json<DiscordRoleCheck>();
    expect((await check()).items[0]).toMatchObject({ id: 'guild', ok: false });
    await configure();
    const good = await check();
    expect(good, JSON.stringify(good.items)).toMatchObject({ ok: true, guildName: 'Vex community' });
    guild().setBotManageRoles(false);
    expect((await check()).items.find((i) => i.id === 'manageRoles')).toMatchObject({ ok: false });
    guild().setBotManageRoles(true);
    guild().setBotPosition(3);
    const low = await check();
    expect(low.items.find((i) => i.id === 'role:vip')?.detail).toMatch(/must be above the roles it gives/);
    expect(low.items.find((i) => i.id === 'role:linked')).toMatchObject({ ok: true });
    const bad = await t.call({
      method: 'PUT',
      url: '/api/admin/discord-roles',
      as: admin,
      body: { guildId: 'nope', roleIds: {} },
    });
    expect(bad.statusCode).toBe(400);
    const user = await t.signIn();
    expect((await t.call({ url: '/api/admin/discord-roles', as: user })).statusCode).toBe(403);
  });
});

describe('go-live posts', () => {
  const live = (startedAt: string, title = 'Bonus hunt night') => ({
    broadcaster: person('1000001', 'vex'),
    is_live: true,
    title,
    started_at: startedAt,
    ended_at: null,
  });

  it('posts the title, category and link once per stream, however often Kick repeats it', async () => {
    await configure();
    const started = t.clock.now().toISOString();
    for (let i = 0; i < 3; i += 1) {
      expect((await deliver(t, 'livestream.status.updated', live(started))).statusCode).toBe(200);
    }
    await t.app.discordRoles.poster.kick();
    expect(guild().posts).toHaveLength(1);
    expect(guild().posts[0]).toMatchObject({ channelId: SIM_CHANNEL_ID });
    expect(guild().posts[0]!.content).toContain('Bonus hunt night');
    expect(guild().posts[0]!.content).toContain('https://kick.com/vex');
    // The next stream posts again.
    t.clock.advance(5 * 3_600_000);
    await deliver(t, 'livestream.status.updated', live(t.clock.now().toISOString(), 'Second'));
    await t.app.discordRoles.poster.kick();
    expect(guild().posts).toHaveLength(2);
  });

  it('marks a refused post failed and shows why', async () => {
    await configure();
    guild().postsForbidden = true;
    await deliver(t, 'livestream.status.updated', live(t.clock.now().toISOString()));
    await t.app.discordRoles.poster.kick();
    const [row] = await t.database.db.select().from(discordGoLivePosts).where(eq(discordGoLivePosts.status, 'failed'));
    expect(row?.lastError).toMatch(/403/);
    const view = (await t.call({ url: '/api/admin/discord-roles', as: admin })).json<DiscordRoleSettings>();
    expect(view.lastProblem).toMatch(/go-live post/);
  });
});

describe('milestone tier rule', () => {
  it("gives the role chosen for a ladder's tier to a viewer who reached it (or higher) this cycle, and takes it when not", async () => {
    await t.database.db.insert(milestoneLadders).values({ site: 1, enabled: true, cycle: 'all_time' });
    await t.database.db.insert(milestoneTiers).values(
      ['Bronze', 'Silver', 'Gold'].map((name, i) => ({
        site: 1,
        position: i,
        name,
        threshold: String((i + 1) * 1000),
        rewardKind: 'points' as const,
        rewardAmount: '10',
      })),
    );
    const view = (await t.call({ url: '/api/admin/discord-roles', as: admin })).json<DiscordRoleSettings>();
    expect(view.rules).toContainEqual({
      key: 'tier:clash:2',
      label: 'Milestone tier: Silver or higher on Clash.gg (this cycle)',
    });
    // Silver's role: the simulator's "VIP" role stands in for it.
    await configure(t, admin, { roleIds: { linked: ROLES.linked, 'tier:clash:2': ROLES.vip } });

    const gold = await member('GoldTier');
    const bronze = await member('BronzeTier');
    const wager = (u: TestUser, wagered: string) =>
      t.database.db
        .insert(milestoneProgress)
        .values({ site: 1, cycleKey: 'all', userId: u.user.id, wagered, updatedAt: t.clock.now() })
        .onConflictDoUpdate({
          target: [milestoneProgress.site, milestoneProgress.cycleKey, milestoneProgress.userId],
          set: { wagered },
        });
    await wager(gold, '3500');
    await wager(bronze, '1500');
    await settle();
    expect(guild().rolesOf(gold.discordId).sort()).toEqual([ROLES.linked, ROLES.vip].sort());
    expect(guild().rolesOf(bronze.discordId)).toEqual([ROLES.linked]);

    // Bronze climbs to Silver: given; a correction brings Gold's wager below Silver: taken.
    await wager(bronze, '2000');
    await wager(gold, '999');
    await settle();
    expect(guild().rolesOf(bronze.discordId).sort()).toEqual([ROLES.linked, ROLES.vip].sort());
    expect(guild().rolesOf(gold.discordId)).toEqual([ROLES.linked]);

    // A key for a tier no ladder has is refused on save.
    const bad = await t.call({
      method: 'PUT',
      url: '/api/admin/discord-roles',
      as: admin,
      body: { guildId: SIM_GUILD_ID, goLiveChannelId: null, roleIds: { 'tier:clash:9': ROLES.vip } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('There is no role rule "tier:clash:9".');
  });
});
