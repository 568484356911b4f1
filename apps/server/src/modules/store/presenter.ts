import type { AdminProduct, Product } from '@kickback/common/http/store';
import { decimalToNumber } from '@kickback/common/money';
import type { ProductRow } from '../../db/schema/store';

/** The Product entity of spec part 1 §3 (image falls back on the client). */
export function toProduct(p: ProductRow): Product {
  return {
    id: p.id,
    name: p.name,
    price: decimalToNumber(p.price),
    image: p.imageUrl,
    category: p.category,
    stock: p.stock,
  };
}

export function toAdminProduct(p: ProductRow, sold: number): AdminProduct {
  return { ...toProduct(p), active: p.active, sold, createdAt: p.createdAt.toISOString() };
}
