/** Who may enter and who may win: each filter, their combinations, chat activity, cooldown, exclusion. */
import { describe, expect, it } from 'vitest';
import type { GiveawaySettings } from '@kickback/common/hubs/giveaway';
import { filterRefusal, linkAgeRefusal, rollRefusal, weightOf, type ChatterFacts } from './eligibility';

const now = new Date('2026-11-25T12:00:00Z');
const open: GiveawaySettings = {
  isSubOnly: false,
  isClashIdLinkedOnly: false,
  isRustMagicCodeOnly: false,
  isRoobetCodeOnly: false,
  subLuck: 1,
  chatActivityFilterInSeconds: 0,
  rewinCooldownInSeconds: 86_400,
  winnersPerRoll: 1,
  prizePoints: 0,
  minLinkedDays: 0,
};
const nobody: ChatterFacts = {
  excluded: false,
  isSubscriber: false,
  hasVerifiedClash: false,
  isActiveRustMagic: false,
  isActiveOnRoobet: false,
  lastMessageAt: now,
  lastWonAt: null,
};
const filters = ['isSubOnly', 'isClashIdLinkedOnly', 'isRustMagicCodeOnly', 'isRoobetCodeOnly'] as const;
const factOf = {
  isSubOnly: 'isSubscriber',
  isClashIdLinkedOnly: 'hasVerifiedClash',
  isRustMagicCodeOnly: 'isActiveRustMagic',
  isRoobetCodeOnly: 'isActiveOnRoobet',
} as const;

describe('filters', () => {
  it('with no filter everyone but an excluded account may enter', () => {
    expect(filterRefusal(open, nobody)).toBeNull();
    expect(filterRefusal(open, { ...nobody, excluded: true })).toBe('excluded');
  });

  it('each filter alone refuses exactly the chatters without its fact', () => {
    for (const f of filters) {
      const settings = { ...open, [f]: true };
      expect(filterRefusal(settings, nobody), f).not.toBeNull();
      expect(filterRefusal(settings, { ...nobody, [factOf[f]]: true }), f).toBeNull();
    }
  });

  it('every combination of filters needs every fact it names, and only those', () => {
    for (let mask = 1; mask < 16; mask++) {
      const on = filters.filter((_, i) => mask & (1 << i));
      const settings = { ...open, ...Object.fromEntries(on.map((f) => [f, true])) };
      const all = { ...nobody, ...Object.fromEntries(on.map((f) => [factOf[f], true])) };
      expect(filterRefusal(settings, all), on.join()).toBeNull();
      for (const missing of on) {
        expect(
          filterRefusal(settings, { ...all, [factOf[missing]]: false }),
          `${on.join()} without ${missing}`,
        ).not.toBeNull();
      }
      expect(filterRefusal(settings, { ...all, excluded: true })).toBe('excluded');
    }
  });
});

describe('at the roll', () => {
  it('chat activity: only those who chatted within the window', () => {
    const settings = { ...open, chatActivityFilterInSeconds: 60 };
    expect(rollRefusal(settings, { ...nobody, lastMessageAt: new Date(now.getTime() - 60_000) }, now)).toBeNull();
    expect(rollRefusal(settings, { ...nobody, lastMessageAt: new Date(now.getTime() - 60_001) }, now)).toBe(
      'not active in chat',
    );
    expect(rollRefusal(settings, { ...nobody, lastMessageAt: null }, now)).toBe('not active in chat');
    expect(rollRefusal(open, { ...nobody, lastMessageAt: null }, now)).toBeNull();
  });

  it('the re-win cooldown holds a winner back until it has passed, across rounds', () => {
    const wonAt = (msAgo: number) => ({ ...nobody, lastWonAt: new Date(now.getTime() - msAgo) });
    expect(rollRefusal(open, wonAt(86_399_999), now)).toBe('won recently');
    expect(rollRefusal(open, wonAt(86_400_000), now)).toBeNull();
    expect(rollRefusal({ ...open, rewinCooldownInSeconds: 0 }, wonAt(1), now)).toBeNull();
  });

  it('the entry filters apply again at the roll, exclusion included', () => {
    expect(rollRefusal({ ...open, isSubOnly: true }, nobody, now)).toBe('not a subscriber');
    expect(rollRefusal(open, { ...nobody, excluded: true }, now)).toBe('excluded');
  });

  it('a subscriber holds Subs Luck tickets, everyone else one', () => {
    expect(weightOf({ subLuck: 4 }, { isSubscriber: true })).toBe(4);
    expect(weightOf({ subLuck: 4 }, { isSubscriber: false })).toBe(1);
  });
});

describe('link ages at entry', () => {
  const DAY = 86_400_000;
  const linked = (days: number) => new Date(now.getTime() - days * DAY);
  it('"linked at least N days": an unlinked chatter never, a link exactly N days old does', () => {
    const ages = { minLinkedDays: 7, minLinkDays: 0 };
    expect(linkAgeRefusal(ages, null, now)).toBe('Kick account not linked to a site account');
    expect(linkAgeRefusal(ages, new Date(linked(7).getTime() + 1), now)).toBe(
      'Kick account linked less than 7 days ago',
    );
    expect(linkAgeRefusal(ages, linked(7), now)).toBeNull();
  });

  it('the fair-earning link age holds linked chatters only; the longer of the two counts; 0 is off', () => {
    expect(linkAgeRefusal({ minLinkedDays: 0, minLinkDays: 3 }, null, now)).toBeNull();
    expect(linkAgeRefusal({ minLinkedDays: 0, minLinkDays: 1 }, linked(0.5), now)).toBe(
      'Kick account linked less than 1 day ago',
    );
    expect(linkAgeRefusal({ minLinkedDays: 2, minLinkDays: 5 }, linked(4), now)).toBe(
      'Kick account linked less than 5 days ago',
    );
    expect(linkAgeRefusal({ minLinkedDays: 0, minLinkDays: 0 }, linked(0), now)).toBeNull();
    expect(linkAgeRefusal({ minLinkedDays: 0, minLinkDays: 0 }, null, now)).toBeNull();
  });
});
