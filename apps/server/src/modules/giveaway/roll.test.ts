/**
 * The roll as built for large rounds (one aggregated read of the round, facts read only when a
 * setting looks at them, the snapshot hashed once and stored compressed), checked against what it
 * must still be: the pure rules of ./eligibility applied to each chatter's true facts, under every
 * combination of filters, chat activity and cooldown; and a draw anyone can recompute, for awkward
 * names and for a round of thousands.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { GiveawaySettings } from '@kickback/common/hubs/giveaway';
import type { RollRecord } from '@kickback/common/http/giveaway';
import { leaderboardPeriods, leaderboardStandings } from '../../db/schema/leaderboards';
import { partnerLinks } from '../../db/schema/partner-links';
import { users } from '../../db/schema/users';
import { simulatedKickUserId } from '../../integrations/kick/simulator';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { chatMessage, linkKick, postDelivery, signedDelivery } from '../../../test/kick';
import { linkVerified } from '../../../test/partner-links';
import { independentDraw, independentSnapshotHash, sha256Hex } from '../../../test/independent-draw';
import { rollRefusal, weightOf, type ChatterFacts } from './eligibility';
import { drawEntryOf } from './facts';

let t: TestApp;
let admin: TestUser;

const open: GiveawaySettings = {
  isSubOnly: false,
  isClashIdLinkedOnly: false,
  isRustMagicCodeOnly: false,
  isRoobetCodeOnly: false,
  subLuck: 3,
  chatActivityFilterInSeconds: 0,
  rewinCooldownInSeconds: 0,
  winnersPerRoll: 1,
  prizePoints: 0,
  minLinkedDays: 0,
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  await t.app.giveaway.addKey(admin.user, '!enter');
});
afterAll(async () => {
  await t.close();
});

/** A chat message through the real pipeline (activity, linked user, the key handler). */
async function say(username: string, content: string, opts: { subscriber?: boolean } = {}) {
  const result = await t.app.chat.process(
    chatMessage(t, {
      kickUserId: simulatedKickUserId(username),
      kickUsername: username,
      isSubscriber: opts.subscriber ?? false,
      content,
    }),
    'simulator',
  );
  expect(result.errors).toEqual([]);
}

async function record(rollId: string): Promise<RollRecord> {
  const res = await t.call({ url: `/api/giveaway/rolls/${rollId}` });
  expect(res.statusCode).toBe(200);
  const r = res.json<RollRecord>();
  expect(sha256Hex(r.serverSeed)).toBe(r.seedHash);
  expect(independentSnapshotHash(r.snapshot)).toBe(r.snapshotHash);
  expect(independentDraw(r.serverSeed, r.snapshot, r.winnersWanted)).toEqual(r.winners);
  return r;
}

interface Model {
  name: string;
  facts: ChatterFacts;
}

describe('who is in the snapshot', () => {
  it('is exactly who the rules admit on true facts, under every combination of settings', async () => {
    const now = () => t.clock.now();
    const period = async (site: number) => {
      const [p] = await t.database.db
        .insert(leaderboardPeriods)
        .values({ site, startAt: new Date(now().getTime() - 3_600_000), endAt: new Date(now().getTime() + 86_400_000) })
        .returning();
      return p!.id;
    };
    const periods = { clash: await period(1), rustmagic: await period(5), roobet: await period(6) };
    const standing = (periodId: number, name: string, onCode: boolean) =>
      t.database.db.insert(leaderboardStandings).values({
        periodId,
        playerKey: `name:${name}`,
        username: name,
        wagered: '500.00',
        unit: 'USD',
        onCode,
        seenAt: now(),
      });

    // Every fact a filter looks at, alone and together; linked or not.
    const profiles: Array<{
      name: string;
      sub?: boolean;
      link?: { clashId?: string; rustMagicId?: string; roobetName?: string };
      claimedClash?: boolean;
      roobetOffCode?: boolean;
      excludeAfterEntry?: boolean;
      quiet?: boolean;
    }> = [
      { name: 'plain' },
      { name: 'sub', sub: true },
      { name: 'quiet', quiet: true },
      { name: 'quiet_sub', sub: true, quiet: true },
      { name: 'clash', link: { clashId: 'clash-1' } },
      { name: 'claimed', claimedClash: true },
      { name: 'rm', link: { rustMagicId: 'rm-1' } },
      { name: 'roo', link: { roobetName: 'roo-1' } },
      { name: 'roo_off', link: { roobetName: 'roo-2' }, roobetOffCode: true },
      { name: 'all', sub: true, link: { clashId: 'clash-2', rustMagicId: 'rm-2', roobetName: 'roo-3' } },
      {
        name: 'all_quiet',
        sub: true,
        quiet: true,
        link: { clashId: 'clash-3', rustMagicId: 'rm-3', roobetName: 'roo-4' },
      },
      { name: 'linked_plain', link: {} },
      { name: 'banned', excludeAfterEntry: true, sub: true, link: { clashId: 'clash-4' } },
    ];
    const model = new Map<string, Model>();
    for (const p of profiles) {
      const kickUserId = simulatedKickUserId(p.name);
      if (p.link || p.claimedClash) {
        const user = await t.signIn({ name: `site-${p.name}` });
        await t.database.db
          .update(users)
          .set({ kickId: kickUserId, kickUsername: p.name })
          .where(eq(users.id, user.user.id));
        if (p.link) await linkVerified(t.database.db, user.user.id, p.link, now());
        if (p.claimedClash) {
          await t.database.db.insert(partnerLinks).values({
            userId: user.user.id,
            field: 'clashId',
            value: `claimed-${p.name}`,
            nameKey: `claimed-${p.name}`,
            state: 'claimed',
            claimedAt: now(),
          });
        }
        if (p.link?.rustMagicId) await standing(periods.rustmagic, p.link.rustMagicId, true);
        if (p.link?.roobetName) await standing(periods.roobet, p.link.roobetName, !p.roobetOffCode);
        if (p.link?.clashId) await standing(periods.clash, p.link.clashId, true);
      }
      await say(p.name, '!enter', { subscriber: p.sub ?? false });
      model.set(kickUserId, {
        name: p.name,
        facts: {
          excluded: false,
          isSubscriber: p.sub ?? false,
          hasVerifiedClash: Boolean(p.link?.clashId),
          isActiveRustMagic: Boolean(p.link?.rustMagicId),
          isActiveOnRoobet: Boolean(p.link?.roobetName) && !p.roobetOffCode,
          lastMessageAt: now(),
          lastWonAt: null,
        },
      });
    }
    expect((await t.app.giveaway.participants()).length).toBe(profiles.length);
    // Excluded after entering: still a participant, never eligible.
    const banned = simulatedKickUserId('banned');
    await t.database.db.update(users).set({ excluded: true }).where(eq(users.kickId, banned));
    model.get(banned)!.facts.excluded = true;
    // Two minutes on, the active ones chat again (subscriber badge as before); the quiet ones do not.
    t.clock.advance(120_000);
    for (const p of profiles.filter((x) => !x.quiet)) {
      await say(p.name, 'still here', { subscriber: p.sub ?? false });
      model.get(simulatedKickUserId(p.name))!.facts.lastMessageAt = now();
    }

    const filters = ['isSubOnly', 'isClashIdLinkedOnly', 'isRustMagicCodeOnly', 'isRoobetCodeOnly'] as const;
    let rolled = 0;
    let refused = 0;
    for (const cooldown of [0, 86_400]) {
      for (const activity of [0, 60]) {
        for (let mask = 0; mask < 16; mask++) {
          t.clock.advance(1000);
          const settings: GiveawaySettings = {
            ...open,
            ...Object.fromEntries(filters.map((f, i) => [f, (mask & (1 << i)) !== 0])),
            chatActivityFilterInSeconds: activity,
            rewinCooldownInSeconds: cooldown,
          };
          await t.app.giveaway.updateSettings(admin.user, settings);
          const at = now();
          const expected = [...model]
            .filter(([, m]) => rollRefusal(settings, m.facts, at) === null)
            .map(([kickUserId, m]) => ({ kickUserId, username: m.name, weight: weightOf(settings, m.facts) }))
            .sort((a, b) => (a.kickUserId < b.kickUserId ? -1 : 1));
          const label = JSON.stringify({ mask, activity, cooldown });
          if (expected.length === 0) {
            await expect(t.app.giveaway.roll(admin.user), label).rejects.toThrow(/No participant is eligible/);
            refused++;
            continue;
          }
          const roll = await t.app.giveaway.roll(admin.user);
          const r = await record(roll.rollId);
          expect(r.snapshot, label).toEqual(expected);
          expect(roll.eligibleCount, label).toBe(expected.length);
          model.get(r.winners[0]!)!.facts.lastWonAt = at;
          rolled++;
        }
      }
    }
    // The combinations covered both outcomes, and the cooldown did keep winners out.
    expect(rolled).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(0);
  });
});

describe('a round of thousands', () => {
  it('rolls ten winners that an independent implementation recomputes from the public record', async () => {
    await t.app.giveaway.clearParticipants(admin.user);
    await t.app.giveaway.updateSettings(admin.user, { ...open, winnersPerRoll: 10 });
    // Awkward names through the pipeline: quotes, backslashes, emoji, control characters, non-Latin.
    const awkward = [
      'O\'Brien "the" \\ one',
      'tab\there',
      'ctrl\u0001\u001f',
      'ünïcödé_名前',
      'party 🎉 time',
      '</script>',
    ];
    for (const name of awkward) await say(name, '!enter', { subscriber: name.startsWith('party') });
    // And 4,000 more written as the migration backfills them (to_json, not JSON.stringify).
    const [{ roundId } = { roundId: 0 }] = await t.database.db
      .execute<{ roundId: number }>(sql`SELECT round_id::int AS "roundId" FROM giveaway_settings`)
      .then((r) => (Array.isArray(r) ? r : (r as { rows: Array<{ roundId: number }> }).rows));
    await t.database.db.execute(sql`
      INSERT INTO giveaway_participants (round_id, kick_user_id, kick_username, draw_entry, entered_at)
      SELECT ${roundId}, (900000 + g)::text, 'bulk ' || g, to_json((900000 + g)::text)::text || ',' || to_json('bulk ' || g)::text, now()
      FROM generate_series(1, 4000) g`);
    await t.database.db.execute(sql`
      INSERT INTO kick_chat_activity (kick_user_id, kick_username, is_subscriber, last_message_at, updated_at)
      SELECT (900000 + g)::text, 'bulk ' || g, g % 7 = 0, now(), now() FROM generate_series(1, 4000) g`);

    const roll = await t.app.giveaway.roll(admin.user);
    expect(roll.eligibleCount).toBe(4006);
    expect(roll.winners).toHaveLength(10);
    const r = await record(roll.rollId);
    expect(r.snapshot).toHaveLength(4006);
    expect(r.snapshot.filter((e) => e.weight === 3)).toHaveLength(Math.floor(4000 / 7) + 1);
    for (const name of awkward) expect(r.snapshot.map((e) => e.username)).toContain(name);
    expect(r.winnerNames).toEqual(roll.winners.map((w) => w.username));
    expect((await t.app.giveaway.state()).lastRoll?.eligibleCount).toBe(4006);
  });

  it("a participant's draw entry is what the migration's backfill writes, for any name", async () => {
    const names = ['plain', 'O\'Brien "q" \\', 'tab\t\n', '\u0001\u007f', 'ünï 名前 🎉', '\u2028\u2029'];
    for (const name of names) {
      const [row] = await t.database.db
        .execute<{ entry: string }>(
          sql`SELECT to_json(${'42'}::text)::text || ',' || to_json(${name}::text)::text AS entry`,
        )
        .then((r) => (Array.isArray(r) ? r : (r as { rows: Array<{ entry: string }> }).rows));
      expect(JSON.parse(`[${row!.entry}]`)).toEqual(JSON.parse(`[${drawEntryOf('42', name)}]`));
      expect(JSON.parse(`[${drawEntryOf('42', name)}]`)).toEqual(['42', name]);
    }
  });
});

describe('subscribers known from a subscription event', () => {
  it('a subscriber known from a subscription event enters and wins a subs-only roll, linked to an account or not; a later message without the badge ends it', async () => {
    await t.app.giveaway.clearParticipants(admin.user);
    await t.app.giveaway.updateSettings(admin.user, { ...open, isSubOnly: true, winnersPerRoll: 2 });
    const linked = await t.signIn({ name: 'site-eventsub' });
    await linkKick(t, linked, { kickId: simulatedKickUserId('eventsub_linked'), kickUsername: 'eventsub_linked' });
    const expires = new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString();
    for (const name of ['eventsub_plain', 'eventsub_linked', 'badge_never']) {
      // Each has chatted before (no badge), so the chat activity row exists.
      await say(name, 'hello');
      if (name === 'badge_never') continue;
      const sub = signedDelivery(
        {
          broadcaster: { user_id: 1000001, username: 'vex' },
          subscriber: { user_id: Number(simulatedKickUserId(name)), username: name },
          duration: 1,
          expires_at: expires,
        },
        { type: 'channel.subscription.new', at: t.clock.now() },
      );
      expect((await postDelivery(t, sub)).statusCode).toBe(200);
    }
    // Their next messages carry the badge; the one who never subscribed has none. (A message without
    // the badge newer than the subscription event ends it: Kick's expires_at cannot be trusted,
    // docs/features/giveaway.md#subscribers.)
    t.clock.advance(1000);
    for (const name of ['eventsub_plain', 'eventsub_linked']) await say(name, '!enter', { subscriber: true });
    await say('badge_never', '!enter');
    const entered = (await t.app.giveaway.participants()).map((p) => p.username).sort();
    expect(entered).toEqual(['eventsub_linked', 'eventsub_plain']);
    const roll = await t.app.giveaway.roll(admin.user);
    const r = await record(roll.rollId);
    expect(r.snapshot.map((e) => [e.username, e.weight]).sort()).toEqual([
      ['eventsub_linked', 3],
      ['eventsub_plain', 3],
    ]);

    // A later message without the badge ends the subscription; with it, it stays.
    t.clock.advance(1000);
    await t.app.giveaway.clearParticipants(admin.user);
    await say('eventsub_plain', '!enter');
    await say('eventsub_linked', '!enter', { subscriber: true });
    expect((await t.app.giveaway.participants()).map((p) => p.username)).toEqual(['eventsub_linked']);
  });
});
