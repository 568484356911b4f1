import { describe, expect, it } from 'vitest';
import type { Product } from '@kickback/common/http/store';
import { ALL_CATEGORIES, buyState, visibleProducts } from './catalogue';

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
});
