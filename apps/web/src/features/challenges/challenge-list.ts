/**
 * The public page's list logic (docs/product.md#challenges-page-public): the one fixed category, the four
 * sorts, and the split into ACTIVE (status 0) and ENDED (status 1); cancelled ones go nowhere.
 */
import { challengeStatuses, type Challenge, type ChallengeSort } from '@kickback/common/http/challenges';

const time = (iso: string) => new Date(iso).getTime();

export function sortChallenges(list: readonly Challenge[], sort: ChallengeSort): Challenge[] {
  const out = [...list];
  const newest = (a: Challenge, b: Challenge) => time(b.createdAt) - time(a.createdAt) || b.id - a.id;
  switch (sort) {
    case 2:
      return out.sort((a, b) => -newest(a, b));
    case 3:
      return out.sort((a, b) => b.price - a.price || newest(a, b));
    case 4:
      return out.sort((a, b) => a.price - b.price || newest(a, b));
    default:
      return out.sort(newest);
  }
}

export function splitChallenges(
  list: readonly Challenge[],
  category: string,
  sort: ChallengeSort,
): { active: Challenge[]; ended: Challenge[] } {
  const shown = sortChallenges(
    list.filter((c) => c.category === category),
    sort,
  );
  return {
    active: shown.filter((c) => c.status === challengeStatuses.active),
    ended: shown.filter((c) => c.status === challengeStatuses.completed),
  };
}

/** "Hit {1,000x} on {Gates}" → text and highlighted parts (the braces are dropped). */
export function highlightParts(text: string): Array<{ text: string; highlight: boolean }> {
  const parts: Array<{ text: string; highlight: boolean }> = [];
  const pattern = /\{([^{}]*)\}/g;
  let last = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index), highlight: false });
    if (m[1]) parts.push({ text: m[1], highlight: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), highlight: false });
  return parts;
}
