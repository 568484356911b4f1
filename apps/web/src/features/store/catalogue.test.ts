import { describe, expect, it } from 'vitest';
import type { Product } from '@kickback/common/http/store';
import { ALL_CATEGORIES, buyState, limitNotes, visibleProducts } from './catalogue';

const p = (id: number, price: number, category: string, stock: number | null = null): Product => ({
  id,
  name: `P${id}`,
  price,
  image: null,
  category,
  stock,
  delivery: 'none',
});
const list = [p(1, 50, 'Merch'), p(2, 500, 'Skins'), p(3, 5, 'Merch'), p(4, 120, 'Skins', 0)];

describe('store catalogue', () => {
  it('sorts High to Low (1, the default) or Low to High (2), filtered by category', () => {
    expect(visibleProducts(list, ALL_CATEGORIES, 1).map((x) => x.id)).toEqual([2, 4, 1, 3]);
    expect(visibleProducts(list, ALL_CATEGORIES, 2).map((x) => x.id)).toEqual([3, 1, 4, 2]);
    expect(visibleProducts(list, 'Merch', 1).map((x) => x.id)).toEqual([1, 3]);
    expect(visibleProducts(list, 'Nothing', 1)).toEqual([]);
  });

  it('disables Buy when signed out, unaffordable or sold out', () => {
    expect(buyState(list[0]!, null)).toBe('sign-in');
    expect(buyState(list[0]!, 49.99)).toBe('too-dear');
    expect(buyState(list[0]!, 50)).toBe('ok');
    expect(buyState(list[3]!, 1000)).toBe('sold-out');
  });

  it("says a product's limits in words (docs/features/store-limits.md)", () => {
    expect(limitNotes(list[0]!)).toEqual([]);
    const limited: Product = {
      ...list[0]!,
      limits: {
        limitCount: 1,
        limitWindow: 'week',
        limitSite: null,
        cooldownMinutes: 120,
        restriction: { kind: 'subscribers' },
      },
    };
    expect(limitNotes(limited)).toEqual(['Subscribers only', 'Limit 1 per week', 'Once every 2 h']);
    const ever = {
      ...limited,
      limits: { ...limited.limits!, limitWindow: 'ever' as const, cooldownMinutes: 45, restriction: null },
    };
    expect(limitNotes(ever)).toEqual(['Limit 1 per person', 'Once every 45 min']);
    const plain = { limitCount: null, limitWindow: null, limitSite: null, cooldownMinutes: null };
    const tier = { ...limited, limits: { ...plain, restriction: { kind: 'tier' as const, site: 1, tier: 'Gold' } } };
    expect(limitNotes(tier)).toEqual(['Gold or higher on Clash.gg this cycle']);
    const restore = { ...limited, limits: { ...plain, restriction: { kind: 'streak_restore' as const } } };
    expect(limitNotes(restore)).toEqual(['Restores your broken stream streak']);
  });
});
