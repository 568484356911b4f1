/**
 * Automatic proof through the partner simulators: the user claims a player, puts the one-time
 * code into that player's name on the (simulated) partner site, and the next real poll — adapter,
 * parser, standings writer — verifies the link and credits the held wager points. Roobet has no
 * automatic proof. Also the codes a name can carry.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { SiteId } from '@kickback/common/http/leaderboards';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { ManualClock } from '../../lib/clock';
import { rowsOf } from '../../db/rows';
import { setUser } from '../../../test/partner-links';
import { checkPartnerLinks, codesIn } from './proof';

let t: TestApp;
beforeAll(warmUp, WARM_UP_TIMEOUT);
beforeEach(async () => {
  // No partner keys: every board polls its local simulator (the real adapters over loopback).
  t = await buildTestApp({ clock: new ManualClock('2026-03-04T20:00:00Z') });
});
afterEach(async () => {
  await t.close();
});

const mine = async (as: TestUser) => (await t.call({ url: '/api/User/partner-links', as })).json();

async function cycle(site: SiteId) {
  t.clock.advance(30 * 60_000);
  expect(await t.app.leaderboards.runCycle(site)).toMatchObject({ fetched: true, error: null });
}

/** The simulated player with the most wager on a board so far (so the next polls show growth). */
async function busyPlayer(site: SiteId, url: string): Promise<{ id: string; name: string }> {
  await cycle(site);
  const cast: Array<{ id: string; name: string }> = (
    await t.call({ url: `/dev/partners/control/players/${site}` })
  ).json();
  const board = (await t.call({ url })).json();
  const top = board.data[0].userName as string; // masked: first two and last two letters
  const player = cast.find((p) => `${p.name.slice(0, 2)}***${p.name.slice(-2)}` === top);
  if (!player) throw new Error(`no simulated player behind ${top}`);
  return player;
}

const cases: Array<{ site: SiteId; url: string; field: 'ClashId' | 'CasesId' | 'RustMagicId'; by: 'id' | 'name' }> = [
  { site: 1, url: '/api/LeaderBoard/now', field: 'ClashId', by: 'id' },
  { site: 7, url: '/api/LeaderBoard/cases/now', field: 'CasesId', by: 'name' },
  { site: 5, url: '/api/LeaderBoard/rustmagic/now', field: 'RustMagicId', by: 'name' },
];

describe('verification by proof code through the simulators', () => {
  for (const c of cases) {
    it(`${c.field}: the code in the partner name verifies the claim and releases the held points`, async () => {
      const player = await busyPlayer(c.site, c.url);
      const user = await t.signIn({ name: 'Claimer' });
      const saved = await t.call({
        method: 'POST',
        url: '/api/User/ids',
        as: user,
        body: { [c.field]: c.by === 'id' ? player.id : player.name },
      });
      expect(saved.statusCode).toBe(200);
      const link = (await mine(user)).links[0];
      expect(link).toMatchObject({ field: c.field, state: 'claimed', proof: 'code' });
      expect(link.proofCode).toMatch(/^KB-[A-HJ-KM-NP-Z2-9]{5}$/);

      // Polls without the code: still claimed, points held, balance untouched.
      for (let i = 0; i < 6; i++) await cycle(c.site);
      const waiting = (await mine(user)).links[0];
      expect(waiting.state).toBe('claimed');
      expect(waiting.heldPoints).toBeGreaterThan(0);
      expect((await t.reload(user.user.id)).points).toBe('0.00');

      // Someone else's code in the name proves nothing.
      const rename = (name: string) =>
        t.call({
          method: 'POST',
          url: '/dev/partners/control/rename',
          body: { site: c.site, playerId: player.id, name },
        });
      expect((await rename(`${player.name} KB-ZZZZZ`)).statusCode).toBe(200);
      await cycle(c.site);
      expect((await mine(user)).links[0].state).toBe('claimed');

      // The player puts the code into their name on the partner site; the next poll verifies.
      expect((await rename(`${player.name} | ${link.proofCode.toLowerCase()}`)).statusCode).toBe(200);
      await cycle(c.site);
      const done = (await mine(user)).links[0];
      expect(done).toMatchObject({ state: 'verified', heldPoints: 0, proofCode: null });
      const credited = Number((await t.reload(user.user.id)).points);
      expect(credited).toBeGreaterThanOrEqual(waiting.heldPoints);

      // Renamed back, the player stays theirs (matched by the stable id pinned at verification).
      await rename(player.name);
      for (let i = 0; i < 6; i++) await cycle(c.site);
      expect(Number((await t.reload(user.user.id)).points)).toBeGreaterThan(credited);
    });
  }

  it("a different player carrying the claimant's code proves nothing: the claim stays claimed", async () => {
    await cycle(1);
    const cast: Array<{ id: string; name: string }> = (await t.call({ url: '/dev/partners/control/players/1' })).json();
    const [claimed, other] = [cast[2]!, cast[3]!];
    const user = await t.signIn({ name: 'Claimant' });
    await t.call({ method: 'POST', url: '/api/User/ids', as: user, body: { ClashId: claimed.id } });
    const code = (await mine(user)).links[0].proofCode as string;
    const renamed = await t.call({
      method: 'POST',
      url: '/dev/partners/control/rename',
      body: { site: 1, playerId: other.id, name: `${other.name} ${code}` },
    });
    expect(renamed.statusCode).toBe(200);
    await cycle(1);
    await cycle(1);
    expect((await mine(user)).links[0]).toMatchObject({ state: 'claimed', proofCode: code });
  });

  describe('claims whose partner id is not yet known', () => {
    const cast = async (): Promise<Array<{ id: string; name: string }>> =>
      (await t.call({ url: '/dev/partners/control/players/1' })).json();
    const rename = (playerId: string, name: string) =>
      t.call({ method: 'POST', url: '/dev/partners/control/rename', body: { site: 1, playerId, name } });
    const claim = async (as: TestUser, value: string) =>
      t.call({ method: 'POST', url: '/api/User/ids', as, body: { ClashId: value } });
    const pinOf = async (u: TestUser) =>
      rowsOf<{ external_id: string | null }>(
        await t.database.db.execute(
          sql`SELECT external_id FROM partner_links WHERE user_id = ${u.user.id} AND state IN ('claimed', 'verified')`,
        ),
      )[0]?.external_id;

    it('a name match pins nothing to an unproven claim: the player still claims his own id, and proves it', async () => {
      const player = (await cast())[4]!;
      await cycle(1); // the board lists the player: his name and id are known to the site
      const squatter = await t.signIn({ name: 'Squatter' });
      expect((await claim(squatter, player.name)).statusCode).toBe(200);
      await cycle(1);
      await cycle(1);
      expect(await pinOf(squatter)).toBeNull();

      const owner = await t.signIn({ name: 'Owner' });
      expect((await claim(owner, player.id)).statusCode).toBe(200);
      const code = (await mine(owner)).links[0].proofCode as string;
      expect((await rename(player.id, `${player.name} ${code}`)).statusCode).toBe(200);
      await cycle(1);
      expect((await mine(owner)).links[0]).toMatchObject({ state: 'verified' });
      expect(await pinOf(owner)).toBe(player.id.toLowerCase());
      expect((await mine(squatter)).links[0]).toMatchObject({ state: 'claimed' });
      expect(await pinOf(squatter)).toBeNull();
    });

    it("only the claimed player's row proves a claim by name: another player with the code does not", async () => {
      const [claimed, other] = [(await cast())[5]!, (await cast())[6]!];
      const user = await t.signIn({ name: 'Name Claimant' });
      expect((await claim(user, claimed.name)).statusCode).toBe(200);
      const code = (await mine(user)).links[0].proofCode as string;
      expect((await rename(other.id, `${other.name} ${code}`)).statusCode).toBe(200);
      await cycle(1);
      expect((await mine(user)).links[0]).toMatchObject({ state: 'claimed' });
      expect(await pinOf(user)).toBeNull();
    });

    it("a claim of a listed player's id is proven on that player only, not by a name spelling the id", async () => {
      const [claimed, other] = [(await cast())[7]!, (await cast())[8]!];
      const user = await t.signIn({ name: 'Id Claimant' });
      expect((await claim(user, claimed.id)).statusCode).toBe(200);
      const code = (await mine(user)).links[0].proofCode as string;
      expect((await rename(other.id, `${claimed.id} ${code}`)).statusCode).toBe(200);
      await cycle(1);
      expect((await mine(user)).links[0]).toMatchObject({ state: 'claimed' });
    });

    it('a player whose id another link holds proves nothing for a second claim', async () => {
      const player = (await cast())[9]!;
      const first = await t.signIn({ name: 'First Prover' });
      const second = await t.signIn({ name: 'Second Claimant' });
      expect((await claim(first, player.id)).statusCode).toBe(200);
      expect((await claim(second, player.name)).statusCode).toBe(200);
      const firstCode = (await mine(first)).links[0].proofCode as string;
      await rename(player.id, `${player.name} ${firstCode}`);
      await cycle(1);
      expect((await mine(first)).links[0]).toMatchObject({ state: 'verified' });

      const secondCode = (await mine(second)).links[0].proofCode as string;
      await rename(player.id, `${player.name} ${secondCode}`);
      await cycle(1);
      expect((await mine(second)).links[0]).toMatchObject({ state: 'claimed' });
      expect(await pinOf(second)).toBeNull();
      expect(await pinOf(first)).toBe(player.id.toLowerCase());
    });
  });

  it('Roobet has no automatic proof: a code in the name does not verify, and there is no code to renew', async () => {
    const player = await busyPlayer(6, '/api/LeaderBoard/roobet/now');
    const user = await t.signIn();
    await t.call({ method: 'POST', url: '/api/User/ids', as: user, body: { RoobetName: player.name } });
    const link = (await mine(user)).links[0];
    expect(link).toMatchObject({ state: 'claimed', proof: 'admin', proofCode: null });
    const renew = await t.call({
      method: 'POST',
      url: '/api/User/partner-links/code',
      as: user,
      body: { field: 'RoobetName' },
    });
    expect(renew.statusCode).toBe(409);
  });

  it('a new code replaces the old one', async () => {
    const user = await t.signIn();
    await t.call({ method: 'POST', url: '/api/User/ids', as: user, body: { CasesId: 'someone' } });
    const before = (await mine(user)).links[0].proofCode;
    const res = await t.call({
      method: 'POST',
      url: '/api/User/partner-links/code',
      as: user,
      body: { field: 'CasesId' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().code).not.toBe(before);
    expect((await mine(user)).links[0].proofCode).toBe(res.json().code);
    expect(
      (await t.call({ method: 'POST', url: '/api/User/partner-links/code', as: user, body: { field: 'ClashId' } }))
        .statusCode,
    ).toBe(409);
  });

  it('the simulator control refuses unknown players', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/dev/partners/control/rename',
      body: { site: 1, playerId: 'nope', name: 'x' },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('codesIn', () => {
  it('finds every kb + five characters in a name, whatever the separators and case', () => {
    expect(codesIn('Neon Wolf | KB-7Q3XH')).toEqual(['kb7q3xh']);
    expect(codesIn('kb7q3xhNeon')).toContain('kb7q3xh');
    expect(codesIn('NeonWolf')).toEqual([]);
  });
});

describe('pinning verified links at a poll', () => {
  it("pins the partner id of each verified link matched by name; a player whose id a link holds stays that link's", async () => {
    const db = t.database.db;
    const [alpha, bravo, holder] = await Promise.all(
      ['PinAlpha', 'PinBravo', 'PinHolder'].map((name) => t.signIn({ name })),
    );
    await setUser(db, alpha!.user.id, { clashId: 'AlphaPlayer' }, t.clock.now());
    await setUser(db, bravo!.user.id, { clashId: 'BravoPlayer' }, t.clock.now());
    await setUser(db, holder!.user.id, { clashId: 'HolderPlayer' }, t.clock.now());
    await db.execute(sql`UPDATE partner_links SET external_id = '777' WHERE user_id = ${holder!.user.id}`);
    const result = await checkPartnerLinks(
      db,
      1,
      [
        { playerKey: 'id:501', username: 'AlphaPlayer', externalId: '501' },
        { playerKey: 'id:777', username: 'BravoPlayer', externalId: '777' },
      ],
      t.clock.now(),
    );
    const pins = rowsOf<{ user_id: string; external_id: string | null }>(
      await db.execute(sql`SELECT user_id, external_id FROM partner_links WHERE field = 'clashId'`),
    );
    const pinOf = (u: TestUser) => pins.find((p) => p.user_id === u.user.id)?.external_id;
    expect(result.pinned).toBe(1);
    expect(pinOf(alpha!)).toBe('501');
    expect(pinOf(bravo!)).toBeNull();
    expect(pinOf(holder!)).toBe('777');
  });
});
