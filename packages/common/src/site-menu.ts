/**
 * The one list of the site's public features the menus are built from (docs/features/site-and-admin-tools.md#the-menu):
 * the header, the phone menu and the footer all read it, in the order the admin set on Admin →
 * Settings → Menu, without the ones the admin hid. The first entries are the contract's menu items
 * with its labels and routes (docs/product.md#route-table), in its order; the ones after them are
 * the pages the site added. No zod here: the header loads it with the first page.
 */

export interface MenuFeature {
  id: string;
  /** The label the menus show. */
  label: string;
  /** The page it opens. */
  path: string;
}

export const menuFeatures = [
  { id: 'home', label: 'Home', path: '/' },
  { id: 'leaderboard', label: 'Leaderboard', path: '/leaderboard' },
  { id: 'store', label: 'Store', path: '/store' },
  { id: 'daily-rewards', label: 'Daily Rewards', path: '/DailyRewards' },
  { id: 'challenges', label: 'Challenges', path: '/Challenges' },
  { id: 'roobet-vip', label: 'Roobet VIP', path: '/RoobetVip' },
  { id: 'hunt', label: 'Bonus Hunt', path: '/hunt' },
  { id: 'live', label: 'Live now', path: '/live' },
  { id: 'raffles', label: 'Raffles', path: '/raffles' },
  { id: 'battles', label: 'Battles', path: '/battles' },
  { id: 'calls', label: 'Slot calls', path: '/calls' },
  { id: 'earn', label: 'Earn points', path: '/earn' },
] as const satisfies readonly MenuFeature[];

export type MenuFeatureId = (typeof menuFeatures)[number]['id'];
export const menuFeatureIds = menuFeatures.map((f) => f.id) as [MenuFeatureId, ...MenuFeatureId[]];

/** One entry of the admin's menu: which feature, and whether the menus show it. */
export interface MenuEntry {
  id: MenuFeatureId;
  shown: boolean;
}

/** The menu before an admin changes it: every feature, in the list's order, all shown. */
export const defaultMenu: readonly MenuEntry[] = menuFeatures.map((f) => ({ id: f.id, shown: true }));

/**
 * A stored menu made whole: ids the site no longer has are dropped, a repeated id counts once, and a
 * feature the stored menu does not name yet (one added after the admin saved) comes at the end, shown.
 */
export function completeMenu(stored: readonly { id: string; shown: boolean }[]): MenuEntry[] {
  const known = new Set<string>(menuFeatureIds);
  const seen = new Set<string>();
  const out: MenuEntry[] = [];
  for (const entry of stored) {
    if (!known.has(entry.id) || seen.has(entry.id)) continue;
    seen.add(entry.id);
    out.push({ id: entry.id as MenuFeatureId, shown: entry.shown });
  }
  for (const f of menuFeatures) if (!seen.has(f.id)) out.push({ id: f.id, shown: true });
  return out;
}

/** The features a menu shows, in the admin's order. */
export function shownMenu(menu: readonly MenuEntry[]): MenuFeature[] {
  return menu.flatMap((e) => {
    const feature = menuFeatures.find((f) => f.id === e.id);
    return e.shown && feature ? [feature] : [];
  });
}

/** How many menu items the header shows in its bar at desktop widths; the rest go under "More". */
export const HEADER_INLINE_ITEMS = 7;
