/**
 * Two processes on one PostgreSQL (two apps, each with its own Discord simulator): an account's
 * roles are applied by one of them only (the job's lease), and a stream's go-live post goes out
 * once (its key on the stream's start), however the deliveries and the workers meet.
 */
import { afterEach, expect, it } from 'vitest';
import { SIM_CHANNEL_ID, SIM_GUILD_ID, SIM_ROLES } from '../../integrations/discord/simulator/guild-state';
import { buildTestApp, type TestApp } from '../../../test/app';
import { linkedUser } from '../../../test/discord';
import { linkKick } from '../../../test/kick';
import { buildRaceApp, describeRace } from '../../../test/race-database';
import { deliver, person } from '../../../test/support';

const linked = SIM_ROLES.find((r) => r.name === 'Linked')!.id;
let a: TestApp | undefined;
let b: TestApp | undefined;
afterEach(async () => {
  await b?.close();
  await a?.close();
  a = b = undefined;
});

async function twoProcesses(): Promise<[TestApp, TestApp]> {
  a = await buildRaceApp();
  b = await buildTestApp({ database: a.database as never, clock: a.clock });
  const admin = await a.signIn({ role: 'Admin' });
  const res = await a.call({
    method: 'PUT',
    url: '/api/admin/discord-roles',
    as: admin,
    body: { guildId: SIM_GUILD_ID, goLiveChannelId: SIM_CHANNEL_ID, roleIds: { linked } },
  });
  expect(res.statusCode).toBe(200);
  return [a, b];
}

const roleCalls = (...apps: TestApp[]) => apps.flatMap((t) => t.app.discordSimulator!.guild.roleCalls);
const posts = (...apps: TestApp[]) => apps.flatMap((t) => t.app.discordSimulator!.guild.posts);

describeRace('Discord roles and go-live posts on two processes', () => {
  it('claims a role job in one process only, and gives the role once', async () => {
    const [x, y] = await twoProcesses();
    const u = await linkedUser(x, 'LeaseRace');
    await linkKick(x, u, { kickId: '9300001', kickUsername: 'leaserace' });
    await x.app.discordRoles.worker.enqueue([u.discordId], false);
    // Both ask at once, then again while the winner still holds it: nobody else gets it.
    const claims = await Promise.all([x.app.discordRoles.worker.claim(), y.app.discordRoles.worker.claim()]);
    const again = await y.app.discordRoles.worker.claim();
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
    expect(again).toBeNull();
    // A second account: both workers drain the queue at once; its role is given once in all.
    const v = await linkedUser(x, 'LeaseRace2');
    await linkKick(x, v, { kickId: '9300002', kickUsername: 'leaserace2' });
    await x.app.discordRoles.worker.enqueue([v.discordId], false);
    await Promise.all([x.app.discordRoles.worker.kick(), y.app.discordRoles.worker.kick()]);
    expect(roleCalls(x, y).filter((c) => c.userId === v.discordId)).toEqual([
      { method: 'PUT', userId: v.discordId, roleId: linked },
    ]);
  });

  it('posts a stream going live once when both processes get the event', async () => {
    const [x, y] = await twoProcesses();
    const event = {
      broadcaster: person('1000001', 'vex'),
      is_live: true,
      title: 'Race night',
      started_at: x.clock.now().toISOString(),
      ended_at: null,
    };
    const answers = await Promise.all([
      deliver(x, 'livestream.status.updated', event),
      deliver(y, 'livestream.status.updated', event),
      deliver(x, 'livestream.status.updated', event),
      deliver(y, 'livestream.status.updated', event),
    ]);
    for (const res of answers) expect(res.statusCode).toBe(200);
    await Promise.all([x.app.discordRoles.poster.kick(), y.app.discordRoles.poster.kick()]);
    await Promise.all([x.app.discordRoles.poster.kick(), y.app.discordRoles.poster.kick()]);
    expect(posts(x, y)).toHaveLength(1);
    expect(posts(x, y)[0]!.content).toContain('Race night');
  });
});
