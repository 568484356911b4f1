import { asc, desc, eq } from 'drizzle-orm';
import {
  type AdminProduct,
  type Product,
  productRestriction,
  type ProductLimits,
  type ProductsResponse,
} from '@kickback/common/http/store';
import { decimalToNumber } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { products, type ProductRow } from '../../db/schema/store';

/** The read-cache key of the public catalogue; invalidate it after any committed product change. */
export const PRODUCTS_READ = 'products';

/** A product's limits (docs/features/store-limits.md), null when it has none. */
export function limitsOf(p: ProductRow): ProductLimits | null {
  const restriction = p.restriction === null ? null : (productRestriction.safeParse(p.restriction).data ?? null);
  if (p.limitCount === null && p.cooldownMinutes === null && restriction === null) return null;
  return {
    limitCount: p.limitCount,
    limitWindow: p.limitWindow,
    limitSite: p.limitSite,
    cooldownMinutes: p.cooldownMinutes,
    restriction,
  };
}

/** The Product entity of docs/product.md#site-entities (image falls back on the client). */
export function toProduct(p: ProductRow): Product {
  const limits = limitsOf(p);
  return {
    ...(limits ? { limits } : {}),
    id: p.id,
    name: p.name,
    price: decimalToNumber(p.price),
    image: p.imageUrl,
    category: p.category,
    stock: p.stock,
    delivery: p.delivery,
  };
}

export function toAdminProduct(
  p: ProductRow,
  sold: number,
  codes: { available: number; sold: number } | null = null,
): AdminProduct {
  return {
    ...toProduct(p),
    active: p.active,
    sold,
    codes: p.delivery === 'code' ? (codes ?? { available: p.stock ?? 0, sold }) : null,
    createdAt: p.createdAt.toISOString(),
  };
}

/** The public catalogue: active products, dearest first, and their categories. */
export async function activeCatalogue(db: DbOrTx): Promise<ProductsResponse> {
  const rows = await db
    .select()
    .from(products)
    .where(eq(products.active, true))
    .orderBy(desc(products.price), asc(products.id));
  const categories = [...new Set(rows.map((p) => p.category))].sort((a, b) => a.localeCompare(b));
  return { data: rows.map(toProduct), categories };
}
