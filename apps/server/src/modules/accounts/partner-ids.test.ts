import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { describeRace } from '../../../test/race-database';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

const save = (as: TestUser | null, body: unknown) => t.call({ method: 'POST', url: '/api/User/ids', as, body });
const ids = async (user: TestUser) => {
  const u = (await t.call({ url: '/api/User/ping', as: user })).json();
  return { ClashId: u.clashId, RustMagicId: u.rustMagicId, RoobetName: u.roobetName, CasesId: u.casesId };
};

beforeAll(warmUp, WARM_UP_TIMEOUT);

describe('POST /api/User/ids', () => {
  it('saves the four partner ids, trimmed, with the contract toast text', async () => {
    const user = await t.signIn();
    const res = await save(user, {
      ClashId: ' clash_42 ',
      RustMagicId: 'rm-7',
      RoobetName: '\tRoobetRoy ',
      CasesId: 'c1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Settings successfully updated.' });
    expect(await ids(user)).toEqual({
      ClashId: 'clash_42',
      RustMagicId: 'rm-7',
      RoobetName: 'RoobetRoy',
      CasesId: 'c1',
    });
  });

  it('an empty id unlinks it; a field left out stays as it is', async () => {
    const user = await t.signIn();
    await save(user, { ClashId: 'a1', RustMagicId: 'b1', RoobetName: 'c1', CasesId: 'd1' });
    expect((await save(user, { ClashId: '', RoobetName: '   ', CasesId: null })).statusCode).toBe(200);
    expect(await ids(user)).toEqual({ ClashId: null, RustMagicId: 'b1', RoobetName: null, CasesId: null });
  });

  it('refuses an id over 64 characters or with control characters, and changes nothing', async () => {
    const user = await t.signIn();
    await save(user, { RoobetName: 'before' });
    const long = await save(user, { RoobetName: 'after', ClashId: 'x'.repeat(65) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({
      message: 'Clash ID must be at most 64 characters.',
      fields: [{ path: 'ClashId', message: 'Clash ID must be at most 64 characters.' }],
    });
    expect((await save(user, { ClashId: 'x'.repeat(64) })).statusCode).toBe(200);
    for (const bad of ['bad\u0007bell', 'tab\tinside', 'zero\u200bwidth', 'line\u2028sep']) {
      const res = await save(user, { RoobetName: 'after', CasesId: bad });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'Cases ID must not contain control characters.' });
    }
    expect(await ids(user)).toMatchObject({ RoobetName: 'before' });
  });

  it('checks each id by its own rule: a number must be a real user number, -1 ("none") never is', async () => {
    const user = await t.signIn();
    await save(user, { ClashId: '4242', RoobetName: 'before' });
    const clash = 'Enter your Clash.gg user number (a whole number from 1, like 4242) or your Clash.gg username.';
    for (const bad of ['-5', '-1', '0', '+7', '12.5', '007']) {
      const res = await save(user, { RoobetName: 'after', ClashId: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ message: clash, fields: [{ path: 'ClashId', message: clash }] });
    }
    const cases = await save(user, { CasesId: '-3' });
    expect(cases.json()).toMatchObject({ fields: [{ path: 'CasesId' }] });
    const rust = await save(user, { RustMagicId: '0' });
    expect(rust.json()).toMatchObject({ fields: [{ path: 'RustMagicId' }] });
    const roobet = await save(user, { RoobetName: '-1' });
    expect(roobet.json()).toEqual({
      message: 'Enter your Roobet username as Roobet shows it; it starts with a letter or a digit.',
      fields: [
        {
          path: 'RoobetName',
          message: 'Enter your Roobet username as Roobet shows it; it starts with a letter or a digit.',
        },
      ],
    });
    expect(await ids(user)).toMatchObject({ ClashId: '4242', RoobetName: 'before' });
    // Names stay welcome, numbers from 1 too.
    expect((await save(user, { ClashId: 'Lucky Seven', CasesId: '17', RustMagicId: 'rm-7' })).statusCode).toBe(200);
  });

  it('refuses an id another user linked, whatever its letter case (409), and changes nothing', async () => {
    const owner = await t.signIn();
    const other = await t.signIn();
    await save(owner, { RoobetName: 'HighRoller' });
    await save(other, { ClashId: 'mine' });
    const res = await save(other, { ClashId: 'changed', RoobetName: 'highROLLER' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'That Roobet username is already linked to another account.',
      fields: [{ path: 'RoobetName', message: 'That Roobet username is already linked to another account.' }],
    });
    expect(await ids(other)).toMatchObject({ ClashId: 'mine', RoobetName: null });
    // Re-saving your own id (even in another case) is fine; another site's same id is fine too.
    expect((await save(owner, { RoobetName: 'HIGHROLLER' })).statusCode).toBe(200);
    expect((await save(other, { CasesId: 'HighRoller' })).statusCode).toBe(200);
  });

  it('needs sign-in and a well-formed body', async () => {
    expect((await save(null, { ClashId: 'x' })).statusCode).toBe(401);
    const user = await t.signIn();
    const res = await save(user, { ClashId: 42 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Clash ID must be text.',
      fields: [{ path: 'ClashId', message: 'Clash ID must be text.' }],
    });
  });
});

describeRace('partner ids: one id claimed by many at once', () => {
  it('concurrent claims of one id: exactly one wins, the others get 409 (never a 500)', async () => {
    const people = await Promise.all(Array.from({ length: 8 }, () => t.signIn()));
    const results = await Promise.all(people.map((p) => save(p, { RustMagicId: 'ContestedName' })));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) {
      expect(r.json()).toMatchObject({ message: 'That RustMagic ID is already linked to another account.' });
    }
  });
});

describe('POST /api/User/preferences', () => {
  it('stores whether the user’s name shows on leaderboards', async () => {
    const user = await t.signIn();
    expect((await t.call({ url: '/api/User/ping', as: user })).json().showNameOnBoards).toBe(false);
    const res = await t.call({
      method: 'POST',
      url: '/api/User/preferences',
      as: user,
      body: { showNameOnBoards: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Settings successfully updated.' });
    expect((await t.reload(user.user.id)).showNameOnBoards).toBe(true);
    const bad = await t.call({
      method: 'POST',
      url: '/api/User/preferences',
      as: user,
      body: { showNameOnBoards: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      (await t.call({ method: 'POST', url: '/api/User/preferences', body: { showNameOnBoards: true } })).statusCode,
    ).toBe(401);
  });
});
