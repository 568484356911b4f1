/**
 * Partner ids are claims until proven (docs/features/partner-links.md): the attack of a stranger
 * claiming a busy player, admin approval and rejection, held wager points credited exactly once,
 * disputes that move a link to its rightful owner with a reversal that never goes below zero, and
 * the ledger invariant.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { FakePartners, partnerEnv } from '../../../test/fake-partners';
import { setUser } from '../../../test/partner-links';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { auditLog } from '../../db/schema/audit';
import { partnerLinks } from '../../db/schema/partner-links';
import { users } from '../../db/schema/users';
import { ManualClock } from '../../lib/clock';
import { pendingVerificationMessage } from '../daily-rewards/claimer';
import { debtMessage } from '../ledger/service';
import { rowsOf } from '../../db/rows';
import { verifiedPartnerLinks } from './matching';
import { describeRace } from '../../../test/race-database';

let t: TestApp;
let partners: FakePartners;
let admin: TestUser;

beforeAll(warmUp, WARM_UP_TIMEOUT);
beforeEach(async () => {
  partners = new FakePartners();
  t = await buildTestApp({
    env: partnerEnv,
    clock: new ManualClock('2026-03-04T12:00:00Z'),
    networkFetch: partners.fetch,
  });
  admin = await t.signIn({ role: 'Admin', name: 'Boss' });
});
afterEach(async () => {
  await t.close();
});

const saveIds = (as: TestUser, body: unknown) => t.call({ method: 'POST', url: '/api/User/ids', as, body });
const mine = async (as: TestUser) => (await t.call({ url: '/api/User/partner-links', as })).json();
const queue = async () => (await t.call({ url: '/api/admin/partner-links', as: admin })).json();
const approve = (id: number, as: TestUser | null = admin, body: unknown = { reason: '' }) =>
  t.call({ method: 'POST', url: `/api/admin/partner-links/${id}/approve`, as, body });
const reject = (id: number, body: unknown, as: TestUser | null = admin) =>
  t.call({ method: 'POST', url: `/api/admin/partner-links/${id}/reject`, as, body });
const points = async (u: TestUser) => (await t.reload(u.user.id)).points;

async function poll(site: 1 | 6) {
  t.clock.advance(3 * 60_000);
  expect(await t.app.leaderboards.runCycle(site)).toMatchObject({ fetched: true, error: null });
}

/** Every user's points ledger adds up to their balance, and no balance or debt is negative. */
async function expectLedgerInvariant() {
  const bad = rowsOf<{ id: string }>(
    await t.database.db.execute(sql`
      SELECT u.id FROM users u LEFT JOIN ledger l ON l.user_id = u.id AND l.currency = 'points'
      GROUP BY u.id, u.points, u.points_debt
      HAVING u.points <> COALESCE(sum(l.delta), 0) OR u.points < 0 OR u.points_debt < 0
    `),
  );
  expect(bad).toEqual([]);
}

async function linkOf(u: TestUser, field: 'clashId' | 'roobetName') {
  const rows = await t.database.db.select().from(partnerLinks).where(eq(partnerLinks.userId, u.user.id));
  return rows.filter((r) => r.field === field).sort((a, b) => b.id - a.id)[0];
}

describe('the attack: a stranger claims a busy player', () => {
  it('earns nothing, ranks as the plain player, claims no daily reward; the owner disputes and wins the link', async () => {
    partners.clash([{ id: 4242, name: 'NeonWolf', wagered: 10_000 }]);
    partners.roobet([{ username: 'NeonWolf', wagered: 500, weightedWagered: 400 }]);
    await poll(1); // the board knows the player (and its stable id) before anyone links it
    await poll(6);

    const stranger = await t.signIn({ name: 'Stranger' });
    await t.database.db
      .update(users)
      .set({ showNameOnBoards: true, avatarUrl: 'https://example.test/stranger.png' })
      .where(eq(users.id, stranger.user.id));
    const res = await saveIds(stranger, { ClashId: '4242', RoobetName: 'NeonWolf' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Settings successfully updated.' });
    expect((await mine(stranger)).links.map((l: { state: string }) => l.state)).toEqual(['claimed', 'claimed']);

    // The player wagers more: the stranger's claim holds the points, the balance gets nothing.
    partners.clash([{ id: 4242, name: 'NeonWolf', wagered: 30_000 }]);
    await poll(1);
    expect(await points(stranger)).toBe('0.00');
    const held = await linkOf(stranger, 'clashId');
    expect(Number(held?.heldPoints)).toBeGreaterThan(0);

    // On the board the player is the plain masked partner row, not the stranger.
    const board = (await t.call({ url: '/api/LeaderBoard/now' })).json();
    expect(board.data[0]).toMatchObject({ userName: 'Ne***lf', clashId: -1 });
    expect(board.data[0].avatarUrl).not.toBe('https://example.test/stranger.png');

    // No Roobet daily reward on someone else's name.
    await t.call({
      method: 'PUT',
      url: '/api/admin/daily-rewards/policies/5',
      as: admin,
      body: { enabled: true, amount: 0, earningsPercent: 10 },
    });
    const daily = await t.call({ method: 'POST', url: '/api/DailyReward/GetDailyRewardRoobet', as: stranger });
    expect(daily.statusCode).toBe(409);
    expect(daily.json().message).toBe(pendingVerificationMessage('Roobet username'));
    expect(await verifiedPartnerLinks(t.database.db, [stranger.user.id])).toEqual([]);

    // The real owner: the id the stranger typed is held by the stranger's claim (unproven, so it is
    // pinned to nothing: the owner's name stays free to claim and prove). The owner contests the id.
    const owner = await t.signIn({ name: 'RealWolf' });
    const taken = await saveIds(owner, { ClashId: '4242' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ message: 'That Clash ID is already linked to another account.' });
    const dispute = await t.call({
      method: 'POST',
      url: '/api/User/partner-links/dispute',
      as: owner,
      body: { field: 'ClashId', value: '4242', note: 'That is my account since 2023.' },
    });
    expect(dispute.statusCode).toBe(200);
    const again = await t.call({
      method: 'POST',
      url: '/api/User/partner-links/dispute',
      as: owner,
      body: { field: 'ClashId', value: ' 4242' },
    });
    expect(again.statusCode).toBe(409);

    const q = await queue();
    expect(q.disputes).toHaveLength(1);
    expect(q.disputes[0]).toMatchObject({
      value: '4242',
      note: 'That is my account since 2023.',
      claimant: { username: 'RealWolf' },
      link: { value: '4242', user: { username: 'Stranger' }, partnerRow: { username: 'NeonWolf', externalId: '4242' } },
    });
    expect(q.claims.map((c: { user: { username: string } }) => c.user.username)).toEqual(['Stranger', 'Stranger']);

    const award = await t.call({
      method: 'POST',
      url: `/api/admin/partner-disputes/${q.disputes[0].id}/award`,
      as: admin,
      body: { reason: 'Owner showed the account settings.' },
    });
    expect(award.statusCode).toBe(200);
    expect((await linkOf(stranger, 'clashId'))?.state).toBe('rejected');
    expect((await t.reload(stranger.user.id)).clashId).toBeNull();
    expect((await mine(owner)).links[0]).toMatchObject({ field: 'ClashId', state: 'verified', value: '4242' });

    // From now on the owner earns and shows; the stranger's held points are gone for good.
    partners.clash([{ id: 4242, name: 'NeonWolf', wagered: 40_000 }]);
    await poll(1);
    expect(await points(stranger)).toBe('0.00');
    expect(Number(await points(owner))).toBeGreaterThan(0);
    const after = (await t.call({ url: '/api/LeaderBoard/now' })).json();
    expect(after.data[0]).toMatchObject({ userName: 'Ne***lf' }); // the owner keeps their name hidden (default)
    await expectLedgerInvariant();
  });
});

describe('admin verification queue', () => {
  it('approves a claim once (held points credited), rejects with a reason (held dropped), audited; guards', async () => {
    partners.roobet([
      { username: 'Honest', wagered: 500, weightedWagered: 100 },
      { username: 'Liar', wagered: 500, weightedWagered: 100 },
    ]);
    const honest = await t.signIn({ name: 'Honest' });
    const liar = await t.signIn({ name: 'Liar' });
    await saveIds(honest, { RoobetName: 'Honest' });
    await saveIds(liar, { RoobetName: 'Liar' });
    await poll(6);
    expect(await points(honest)).toBe('0.00');
    const me = await mine(honest);
    expect(me.links[0]).toMatchObject({ state: 'claimed', proof: 'admin', proofCode: null, heldPoints: 1000 });

    const q = await queue();
    const [h, l] = [
      q.claims.find((c: { value: string }) => c.value === 'Honest'),
      q.claims.find((c: { value: string }) => c.value === 'Liar'),
    ];
    expect(h).toMatchObject({ heldPoints: 1000, partnerRow: { siteName: 'Roobet', username: 'Honest' }, others: [] });

    // Authorisation on the server, validation, unknown ids.
    expect((await approve(h.id, null)).statusCode).toBe(401);
    expect((await approve(h.id, honest)).statusCode).toBe(403);
    expect((await t.call({ url: '/api/admin/partner-links', as: honest })).statusCode).toBe(403);
    expect((await reject(l.id, { reason: '' })).statusCode).toBe(400);
    expect((await approve(999_999)).statusCode).toBe(404);
    expect((await approve(h.id, admin, { reason: 5 })).statusCode).toBe(400);

    expect((await approve(h.id, admin, { reason: 'Matches their Kick name' })).statusCode).toBe(200);
    expect(await points(honest)).toBe('1000.00');
    expect((await approve(h.id)).statusCode).toBe(409);
    const rej = await reject(l.id, { reason: 'Not their account' });
    expect(rej.statusCode).toBe(200);
    expect((await reject(l.id, { reason: 'again' })).statusCode).toBe(409);
    expect(await points(liar)).toBe('0.00');
    expect((await mine(liar)).links[0]).toMatchObject({ state: 'rejected', reason: 'Not their account' });
    expect((await t.reload(liar.user.id)).roobetName).toBeNull();

    // Later wager: the verified link earns directly; the rejected one never.
    partners.roobet([
      { username: 'Honest', wagered: 600, weightedWagered: 150 },
      { username: 'Liar', wagered: 600, weightedWagered: 150 },
    ]);
    await poll(6);
    expect(await points(honest)).toBe('1500.00');
    expect(await points(liar)).toBe('0.00');

    const actions = (await t.database.db.select().from(auditLog)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['partner_link.verify', 'partner_link.reject']));
    await expectLedgerInvariant();
  });
});

describe('links that existed before verification', () => {
  it('"mark all existing as verified" verifies the migrated claims only, audited', async () => {
    const old = await t.signIn({ name: 'Veteran' });
    const fresh = await t.signIn({ name: 'Newcomer' });
    await saveIds(old, { CasesId: 'vet' });
    await saveIds(fresh, { CasesId: 'new' });
    // As 0600 leaves them: claimed and marked migrated.
    await t.database.db.update(partnerLinks).set({ migrated: true }).where(eq(partnerLinks.userId, old.user.id));
    expect((await queue()).migratedPending).toBe(1);
    expect(
      (await t.call({ method: 'POST', url: '/api/admin/partner-links/approve-existing', as: old })).statusCode,
    ).toBe(403);
    const res = await t.call({ method: 'POST', url: '/api/admin/partner-links/approve-existing', as: admin });
    expect(res.json()).toEqual({ message: '1 claim approved.', approved: 1 });
    expect((await mine(old)).links[0].state).toBe('verified');
    expect((await mine(fresh)).links[0].state).toBe('claimed');
  });
});

describeRace('partner links: concurrent approvals', () => {
  it('held earnings are credited exactly once under concurrent approvals (single and bulk)', async () => {
    partners.roobet([{ username: 'Racer', wagered: 500, weightedWagered: 123.45 }]);
    const racer = await t.signIn({ name: 'Racer' });
    await saveIds(racer, { RoobetName: 'Racer' });
    await poll(6);
    const id = (await queue()).claims[0].id;
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => approve(id)),
      ...Array.from({ length: 3 }, () =>
        t.call({ method: 'POST', url: '/api/admin/partner-links/approve', as: admin, body: { ids: [id] } }),
      ),
    ]);
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    const approvedSingles = results.slice(0, 6).filter((r) => r.statusCode === 200).length;
    const approvedBulk = results.slice(6).reduce((n, r) => n + (r.json().approved ?? 0), 0);
    expect(approvedSingles + approvedBulk).toBe(1);
    expect(await points(racer)).toBe('1234.50');
    const credits = rowsOf<{ n: string | number }>(
      await t.database.db.execute(
        sql`SELECT count(*) AS n FROM ledger WHERE user_id = ${racer.user.id} AND reference LIKE 'partner-link:%'`,
      ),
    );
    expect(Number(credits[0]?.n)).toBe(1);
    await expectLedgerInvariant();
  });
});

describe('one player, one account', () => {
  it('the database itself refuses a second active link on one name or one stable id', async () => {
    const [a, b] = [await t.signIn(), await t.signIn()];
    const row = (userId: string, nameKey: string, externalId: string | null) => ({
      userId,
      field: 'clashId' as const,
      value: nameKey,
      nameKey,
      externalId,
      state: 'claimed' as const,
      claimedAt: t.clock.now(),
    });
    await t.database.db.insert(partnerLinks).values(row(a.user.id, 'neonwolf', '4242'));
    await expect(t.database.db.insert(partnerLinks).values(row(b.user.id, 'neonwolf', null))).rejects.toThrow();
    await expect(t.database.db.insert(partnerLinks).values(row(b.user.id, 'othername', '4242'))).rejects.toThrow();
    // A rejected link does not hold the player.
    await t.database.db.update(partnerLinks).set({ state: 'rejected' }).where(eq(partnerLinks.userId, a.user.id));
    await t.database.db.insert(partnerLinks).values(row(b.user.id, 'neonwolf', '4242'));
  });

  it('a dispute needs someone else to hold the id', async () => {
    const u = await t.signIn();
    const nobody = await t.call({
      method: 'POST',
      url: '/api/User/partner-links/dispute',
      as: u,
      body: { field: 'CasesId', value: 'free-id' },
    });
    expect(nobody.statusCode).toBe(400);
    await saveIds(u, { CasesId: 'mine' });
    const own = await t.call({
      method: 'POST',
      url: '/api/User/partner-links/dispute',
      as: u,
      body: { field: 'CasesId', value: 'MINE' },
    });
    expect(own.statusCode).toBe(409);
    const bad = await t.call({
      method: 'POST',
      url: '/api/User/partner-links/dispute',
      as: u,
      body: { field: 'Nope', value: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      (await t.call({ method: 'POST', url: '/api/User/partner-links/dispute', body: { field: 'CasesId', value: 'x' } }))
        .statusCode,
    ).toBe(401);
  });
});

describeRace('partner links: one player claimed by two accounts at once', () => {
  it('a name or an id cannot be claimed by two accounts, even at once; an unlinked name is free again', async () => {
    partners.clash([{ id: 777, name: 'Lucky Seven', wagered: 1000 }]);
    await poll(1);
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => t.signIn({ name: `P${i}` })));
    // A claim of the name and one of the id are both unproven (pinned to nothing): one of each
    // spelling gets through, and the proof code decides which of them is the player's.
    const values = ['777', 'luckyseven', 'LUCKY SEVEN', '777', 'Lucky  Seven', 'luckyseven'];
    const results = await Promise.all(people.map((p, i) => saveIds(p, { ClashId: values[i] })));
    const won = (spelling: (v: string) => boolean) =>
      results.filter((r, i) => spelling(values[i]!) && r.statusCode === 200).length;
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 409, 409, 409, 409]);
    expect([won((v) => v === '777'), won((v) => v !== '777')]).toEqual([1, 1]);
    const winner = people[results.findIndex((r, i) => values[i] !== '777' && r.statusCode === 200)]!;
    const loser = people[results.findIndex((r) => r.statusCode === 409)]!;
    expect((await saveIds(loser, { ClashId: 'Lucky Seven' })).statusCode).toBe(409);
    expect((await saveIds(winner, { ClashId: '' })).statusCode).toBe(200);
    expect((await saveIds(loser, { ClashId: 'Lucky Seven' })).statusCode).toBe(200);
  });
});

describe('a lost dispute is reversed through the ledger, never below zero', () => {
  it('takes back what the link earned, records the shortfall as debt that blocks spending until earnings pay it', async () => {
    partners.roobet([{ username: 'Whale', wagered: 500, weightedWagered: 200 }]);
    const wrong = await t.signIn({ name: 'Wrong' });
    const owner = await t.signIn({ name: 'Owner' });
    await saveIds(wrong, { RoobetName: 'Whale' });
    await poll(6);
    const claim = (await queue()).claims[0];
    await approve(claim.id); // an admin's mistake: 2,000 points credited
    expect(await points(wrong)).toBe('2000.00');

    // The wrong holder spends 1,500 of it before anyone notices.
    const spent = await t.call({
      method: 'POST',
      url: `/api/admin/users/${wrong.user.id}/balance`,
      as: admin,
      body: { currency: 'points', amount: -1500, reason: 'Spent (test)' },
    });
    expect(spent.statusCode).toBe(200);

    await t.call({
      method: 'POST',
      url: '/api/User/partner-links/dispute',
      as: owner,
      body: { field: 'RoobetName', value: 'Whale' },
    });
    const disputeId = (await queue()).disputes[0].id;
    expect(
      (await t.call({ method: 'POST', url: `/api/admin/partner-disputes/${disputeId}/award`, as: owner, body: {} }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.call({ method: 'POST', url: `/api/admin/partner-disputes/${disputeId}/award`, as: admin, body: {} }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.call({ method: 'POST', url: `/api/admin/partner-disputes/${disputeId}/award`, as: admin, body: {} }))
        .statusCode,
    ).toBe(409);

    const after = await t.reload(wrong.user.id);
    expect(after.points).toBe('0.00');
    expect(after.pointsDebt).toBe('1500.00');
    expect((await mine(wrong)).pointsDebt).toBe(1500);
    await expectLedgerInvariant();

    // Spending is blocked while the debt stands.
    const product = (
      await t.call({
        method: 'POST',
        url: '/api/admin/products',
        as: admin,
        body: { name: 'Sticker', price: 1, category: 'Merch' },
      })
    ).json();
    await t.call({
      method: 'POST',
      url: `/api/admin/users/${wrong.user.id}/balance`,
      as: admin,
      body: { currency: 'points', amount: 5, reason: 'Goodwill' },
    });
    const order = await t.call({
      method: 'POST',
      url: '/api/Order/OrderProduct',
      as: wrong,
      body: { productId: product.id },
    });
    expect(order.statusCode).toBe(409);
    expect(order.json().message).toBe(debtMessage);

    // Later earnings pay the debt first.
    await setUser(t.database.db, wrong.user.id, { roobetName: 'WrongsOwn' }, t.clock.now());
    partners.roobet([
      { username: 'Whale', wagered: 500, weightedWagered: 200 },
      { username: 'WrongsOwn', wagered: 500, weightedWagered: 100 },
    ]);
    await poll(6);
    const paid = await t.reload(wrong.user.id);
    expect(paid.pointsDebt).toBe('495.00'); // 1,000 earned + 5 granted paid 1,005 of 1,500
    expect(paid.points).toBe('0.00');
    await expectLedgerInvariant();

    // An admin settles the rest; spending works again.
    const settle = await t.call({
      method: 'POST',
      url: `/api/admin/users/${wrong.user.id}/settle-debt`,
      as: admin,
      body: { reason: 'Forgiven' },
    });
    expect(settle.statusCode).toBe(200);
    await t.call({
      method: 'POST',
      url: `/api/admin/users/${wrong.user.id}/balance`,
      as: admin,
      body: { currency: 'points', amount: 5, reason: 'Goodwill' },
    });
    expect(
      (await t.call({ method: 'POST', url: '/api/Order/OrderProduct', as: wrong, body: { productId: product.id } }))
        .statusCode,
    ).toBe(200);
    await expectLedgerInvariant();
  });
});

describeRace('partner links: concurrent awards of one dispute', () => {
  it('concurrent awards of one dispute move the link and reverse the credit exactly once', async () => {
    partners.roobet([{ username: 'Contested', wagered: 500, weightedWagered: 50 }]);
    const holder = await t.signIn({ name: 'Holder' });
    const claimant = await t.signIn({ name: 'Claimant' });
    await saveIds(holder, { RoobetName: 'Contested' });
    await poll(6);
    await approve((await queue()).claims[0].id);
    expect(await points(holder)).toBe('500.00');
    await t.call({
      method: 'POST',
      url: '/api/User/partner-links/dispute',
      as: claimant,
      body: { field: 'RoobetName', value: 'Contested' },
    });
    const id = (await queue()).disputes[0].id;
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.call({ method: 'POST', url: `/api/admin/partner-disputes/${id}/award`, as: admin, body: {} }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const after = await t.reload(holder.user.id);
    expect([after.points, after.pointsDebt]).toEqual(['0.00', '0.00']);
    const active = await t.database.db.select().from(partnerLinks).where(eq(partnerLinks.state, 'verified'));
    expect(active.map((l) => l.userId)).toEqual([claimant.user.id]);
    await expectLedgerInvariant();
  });
});
