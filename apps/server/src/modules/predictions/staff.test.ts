/**
 * Staff and their own predictions (docs/features/predictions.md#staff-and-their-own-predictions):
 * replays "a Moderator creates a prediction, he and an alt bet on answer 2, he resolves it for
 * answer 2". Whoever created it cannot bet (chat `!bet` on either path, and the bet service), and
 * a staff account that bet cannot lock or resolve it; each refusal says why and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { predictionStaffMessages } from '@kickback/common/http/prediction';
import type { PredictionState } from '@kickback/common/hubs/prediction';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { givePoints, ledgerMismatches } from '../../../test/economy';
import { escrow, linkedChatter, openPrediction, repliesTo, say, type Chatter } from '../../../test/predictions';

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
});
afterAll(() => t.close());

let kick = 88_000;
/** A staff member whose own Kick account is linked to his site account. */
async function staffChatter(name: string): Promise<Chatter> {
  const u = await t.signIn({ role: 'Moderator', name });
  const kickId = String(++kick);
  const kickName = `k${name}`;
  await t.database.db.update(users).set({ kickId, kickUsername: kickName }).where(eq(users.id, u.user.id));
  await t.app.chat.linkChanged(u.user.id);
  await givePoints(t, u.user.id, '10000');
  return { ...u, kickId, kickName };
}
const bet = async (who: Chatter, text: string) => {
  const { res, messageId } = await say(t, who, text);
  expect(res.statusCode).toBeLessThan(300);
  return repliesTo(t, messageId);
};
const transition = (id: string, action: 'lock' | 'resolve', as: TestUser) =>
  t.call({
    method: 'POST',
    url: `/api/predictions/${id}/${action}`,
    as,
    ...(action === 'resolve' ? { body: { answerId: 2 } } : {}),
  });

describe('staff and their own predictions', () => {
  it('the creator cannot bet; a staff bettor cannot lock or resolve; viewers’ stakes do not reach them', async () => {
    const creator = await staffChatter('creator');
    const other = await staffChatter('othermod');
    const alt = await linkedChatter(t, String(++kick), { points: '1000' });
    const viewer = await linkedChatter(t, String(++kick), { points: '10000' });
    const { id } = await openPrediction(t, creator);

    // The creator's !bet from chat is refused with the reason, and so is one through the bet service.
    expect(await bet(creator, '!bet 2 5000')).toEqual([
      `@${creator.kickName} ${predictionStaffMessages.runnerCannotBet}`,
    ]);
    const direct = await t.app.predictions.bet(creator.user, { option: 2, cents: 500_000n });
    expect(direct).toEqual({ ok: false, reason: 'runs_it' });
    expect((await t.reload(creator.user.id)).points).toBe('10000.00');

    // Another Moderator and an alt bet on 2, a viewer on 1.
    expect((await bet(other, '!bet 2 1000'))[0]).toContain('bet taken');
    expect((await bet(alt, '!bet 2 1000'))[0]).toContain('bet taken');
    expect((await bet(viewer, '!bet 1 10000'))[0]).toContain('bet taken');

    // The Moderator who bet cannot lock or resolve it: 403 saying why, nothing changes.
    const before = (await t.call({ url: '/api/predictions', as: admin })).json<
      Array<{ id: string; version: number }>
    >();
    for (const action of ['lock', 'resolve'] as const) {
      const refused = await transition(id, action, other);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(predictionStaffMessages.bettorCannotManage(action));
    }
    const after = (await t.call({ url: '/api/predictions', as: admin })).json<Array<{ id: string; version: number }>>();
    expect(after.find((p) => p.id === id)).toEqual(before.find((p) => p.id === id));
    expect((await escrow(t)).stakes).toBe('12000.00');

    // The creator, who could not bet, locks and resolves it.
    expect((await transition(id, 'lock', creator)).statusCode).toBe(200);
    const resolved = await transition(id, 'resolve', creator);
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json<PredictionState>().resultAnswerId).toBe(2);
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});
