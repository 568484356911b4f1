/**
 * Who may enter and who may win (docs/features/giveaway.md#entering-and-the-roll). Pure: the facts
 * come from ./facts (stored chat activity, verified partner links, stored partner standings, past
 * wins), the clock is passed in. Filters apply at entry and again at the roll, because a chatter's
 * state can change in between (a subscription ends, a partner link is rejected, they go quiet).
 */
import type { GiveawaySettings } from '@kickback/common/hubs/giveaway';

export interface ChatterFacts {
  excluded: boolean;
  /** Banned or timed out on Kick right now (docs/features/kick-events-and-bans.md). */
  banned?: boolean;
  isSubscriber: boolean;
  /** A verified Clash link (a claimed or rejected one does not count). */
  hasVerifiedClash: boolean;
  /** On the code at RustMagic / Roobet in the current period, per the stored partner standings. */
  isActiveRustMagic: boolean;
  isActiveOnRoobet: boolean;
  lastMessageAt: Date | null;
  lastWonAt: Date | null;
}

/** What the entry filters look at. */
export type FilterFacts = Pick<
  ChatterFacts,
  'excluded' | 'banned' | 'isSubscriber' | 'hasVerifiedClash' | 'isActiveRustMagic' | 'isActiveOnRoobet'
>;

export type Filters = Pick<
  GiveawaySettings,
  'isSubOnly' | 'isClashIdLinkedOnly' | 'isRustMagicCodeOnly' | 'isRoobetCodeOnly'
>;

/** Why a chatter may not be in the round under these filters, or null when they may. */
export function filterRefusal(settings: Filters, facts: FilterFacts): string | null {
  if (facts.excluded) return 'excluded';
  if (facts.banned) return 'banned on Kick';
  if (settings.isSubOnly && !facts.isSubscriber) return 'not a subscriber';
  if (settings.isClashIdLinkedOnly && !facts.hasVerifiedClash) return 'no verified Clash link';
  if (settings.isRustMagicCodeOnly && !facts.isActiveRustMagic) return 'not on the RustMagic code';
  if (settings.isRoobetCodeOnly && !facts.isActiveOnRoobet) return 'not on the Roobet code';
  return null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The link ages an entry must meet (docs/features/fair-earning.md#account-and-link-age): the
 * giveaway's "linked at least N days" (`minLinkedDays`, which a chatter no site user linked never
 * meets) and the fair-earning minimum link age (`minLinkDays`, which only a linked chatter is held
 * to, as for channel points). 0 is off. `linkedAt`: when the Kick account was linked, null when it
 * is not. The Kick account age is decided by the entry statement (./entries).
 */
export function linkAgeRefusal(
  ages: { minLinkedDays: number; minLinkDays: number },
  linkedAt: Date | null,
  now: Date,
): string | null {
  if (ages.minLinkedDays > 0 && linkedAt === null) return 'Kick account not linked to a site account';
  const days = Math.max(ages.minLinkedDays, ages.minLinkDays);
  if (days > 0 && linkedAt !== null && now.getTime() - linkedAt.getTime() < days * DAY_MS) {
    return `Kick account linked less than ${days} day${days === 1 ? '' : 's'} ago`;
  }
  return null;
}

/** Whether a participant may win a roll at `now`: the filters, chat activity and the re-win cooldown. */
export type RollSettings = Filters & Pick<GiveawaySettings, 'chatActivityFilterInSeconds' | 'rewinCooldownInSeconds'>;

export function rollRefusal(settings: RollSettings, facts: ChatterFacts, now: Date): string | null {
  const filtered = filterRefusal(settings, facts);
  if (filtered) return filtered;
  const activityMs = settings.chatActivityFilterInSeconds * 1000;
  if (activityMs > 0 && (!facts.lastMessageAt || now.getTime() - facts.lastMessageAt.getTime() > activityMs)) {
    return 'not active in chat';
  }
  const cooldownMs = settings.rewinCooldownInSeconds * 1000;
  if (cooldownMs > 0 && facts.lastWonAt && now.getTime() - facts.lastWonAt.getTime() < cooldownMs) {
    return 'won recently';
  }
  return null;
}

/** Tickets in the draw: Subs Luck for a subscriber, one for everyone else. */
export function weightOf(
  settings: Pick<GiveawaySettings, 'subLuck'>,
  facts: Pick<ChatterFacts, 'isSubscriber'>,
): number {
  return facts.isSubscriber ? settings.subLuck : 1;
}
