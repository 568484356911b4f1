import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, settings } from '../../db/schema/audit';
import { buildTestApp, nextSteamId, type TestApp } from '../../../test/app';
import { describeRace } from '../../../test/race-database';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { upsertSteamUser } from '../auth/user-accounts';
import { setupLink } from './setup-claim';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

beforeAll(warmUp, WARM_UP_TIMEOUT);

const tokenOf = (link: string | null) => {
  expect(link).toMatch(/^http:\/\/kickback\.test\/setup\/[\w-]{32}$/);
  return link!.split('/').pop()!;
};
const claim = (as: Awaited<ReturnType<TestApp['signIn']>> | null, token: unknown) =>
  t.call({ method: 'POST', url: '/api/setup/claim', as, body: { token } });

describe('first run: claiming the site with the setup link', () => {
  it('a plain sign-in on a fresh site is a User; the link is the same at every start until used', async () => {
    t = await buildTestApp();
    const first = await setupLink(t.database.db, t.config.publicUrl);
    expect(await setupLink(t.database.db, t.config.publicUrl)).toBe(first); // a restart, another process
    // The sign-in path itself (the callback's upsert) with the site's configured admin ids.
    const id = nextSteamId();
    const user = await upsertSteamUser(t.database.db, id, null, t.config.adminSteamIds, t.clock.now());
    expect(user.role).toBe('User');
  });

  it('the link makes the signed-in account the Admin, audited; the token dies and no link is printed again', async () => {
    t = await buildTestApp();
    const token = tokenOf(await setupLink(t.database.db, t.config.publicUrl));
    const check = async () => (await t.call({ method: 'POST', url: '/api/setup/check', body: { token } })).json();
    expect(await check()).toEqual({ usable: true, message: null }); // the page offers the button
    const streamer = await t.signIn({ name: 'Vex' });
    const res = await claim(streamer, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'You are the admin of this site now.' });
    expect((await t.reload(streamer.user.id)).role).toBe('Admin');
    // The session sees the new role at once (the session cache was evicted).
    expect((await t.call({ url: '/api/User/ping', as: streamer })).json()).toMatchObject({ role: 'Admin' });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'site.claim'));
    expect(audit).toEqual([
      expect.objectContaining({ actorUserId: streamer.user.id, before: { role: 'User' }, after: { role: 'Admin' } }),
    ]);
    // Used once: another account with the same link gets nothing.
    const other = await t.signIn();
    expect((await claim(other, token)).statusCode).toBe(404);
    expect((await t.reload(other.user.id)).role).toBe('User');
    expect(await setupLink(t.database.db, t.config.publicUrl)).toBeNull();
    // The used link's page says so instead of offering "Make … the admin" again.
    expect(await check()).toEqual({
      usable: false,
      message: 'This setup link is not valid: it was already used, or it is not the one in the server log.',
    });
  });

  it('without the token nobody becomes admin: wrong token 404, malformed 400, no sign-in 401', async () => {
    t = await buildTestApp();
    const token = tokenOf(await setupLink(t.database.db, t.config.publicUrl));
    const user = await t.signIn();
    const wrong = await claim(user, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().message).toMatch(/setup link is not valid/);
    for (const bad of ['', 'short', 'x'.repeat(101), '../../etc', 42, null]) {
      expect((await claim(user, bad)).statusCode).toBe(400);
    }
    expect((await claim(null, token)).statusCode).toBe(401);
    expect((await t.reload(user.user.id)).role).toBe('User');
    // The token still works for the streamer.
    expect((await claim(user, token)).statusCode).toBe(200);
  });

  it('once an admin exists (ADMIN_STEAM_IDS, npm run admin -- grant) the link is refused with 409 and not printed again', async () => {
    t = await buildTestApp();
    const token = tokenOf(await setupLink(t.database.db, t.config.publicUrl));
    await t.signIn({ role: 'Admin' });
    const user = await t.signIn();
    expect((await claim(user, token)).statusCode).toBe(409);
    expect((await t.reload(user.user.id)).role).toBe('User');
    expect(await setupLink(t.database.db, t.config.publicUrl)).toBeNull();
    expect(await t.database.db.select().from(settings).where(eq(settings.key, 'setup_claim'))).toEqual([]);
  });
});

// The row lock on the setup token (setup-claim.ts) is what lets one claim through: on PGlite's one
// connection the claims run one after another whatever the locks, so this runs on PostgreSQL
// (docs/architecture.md#race-tests).
describeRace('the setup link raced', () => {
  it('two accounts racing with the same link: exactly one becomes Admin', async () => {
    t = await buildTestApp();
    const token = tokenOf(await setupLink(t.database.db, t.config.publicUrl));
    const racers = await Promise.all(Array.from({ length: 6 }, () => t.signIn()));
    const codes = await Promise.all(racers.map((r) => claim(r, token).then((res) => res.statusCode)));
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c !== 200).every((c) => c === 404)).toBe(true);
    const roles = await Promise.all(racers.map((r) => t.reload(r.user.id).then((u) => u.role)));
    expect(roles.filter((r) => r === 'Admin')).toHaveLength(1);
  });
});
