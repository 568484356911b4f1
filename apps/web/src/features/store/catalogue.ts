/** The Store page's pure rules: category filter, price sort, and whether Buy is enabled (docs/product.md#site-screens-and-routes, docs/product.md#site-validation). */
import { siteById } from '@kickback/common/http/leaderboards';
import { PRODUCT_SORT_LOW_TO_HIGH, type Product } from '@kickback/common/http/store';
import { t as currentT } from '../../i18n/i18n';

/** What the card says about a product's limits (docs/features/store-limits.md): "1 per week", "Subscribers only". */
export function limitNotes(product: Product, t: typeof currentT = currentT): string[] {
  const l = product.limits;
  if (!l) return [];
  const notes: string[] = [];
  if (l.restriction?.kind === 'subscribers') notes.push(t('store.subscribersOnly'));
  if (l.restriction?.kind === 'tier') {
    notes.push(
      t('store.tierOrHigher', {
        tier: l.restriction.tier,
        site: siteById(l.restriction.site)?.name ?? t('store.aPartnerSite'),
      }),
    );
  }
  if (l.restriction?.kind === 'streak_restore') notes.push(t('store.restoresStreak'));
  if (l.limitCount !== null && l.limitWindow !== null) {
    notes.push(t(`store.limit.${l.limitWindow}`, { count: l.limitCount }));
  }
  if (l.cooldownMinutes !== null) {
    const m = l.cooldownMinutes;
    notes.push(
      m % 60 === 0 ? t('store.onceEveryHours', { hours: m / 60 }) : t('store.onceEveryMinutes', { minutes: m }),
    );
  }
  return notes;
}

export const ALL_CATEGORIES = 'All';

export function visibleProducts(products: readonly Product[], category: string, sort: number): Product[] {
  const shown = category === ALL_CATEGORIES ? [...products] : products.filter((p) => p.category === category);
  const dir = sort === PRODUCT_SORT_LOW_TO_HIGH ? 1 : -1;
  return shown.sort((a, b) => (a.price - b.price) * dir || a.name.localeCompare(b.name));
}

export type BuyState = 'sign-in' | 'too-dear' | 'sold-out' | 'ok';

/** Buy is disabled when signed out or the price exceeds the user's points (and when sold out). */
export function buyState(product: Product, points: number | null): BuyState {
  if (points === null) return 'sign-in';
  if (product.stock !== null && product.stock <= 0) return 'sold-out';
  if (product.price > points) return 'too-dear';
  return 'ok';
}

export const FALLBACK_IMAGE = '/store/fallback.svg';
