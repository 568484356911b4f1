/**
 * The store (spec part 1): `GET /api/Product/GetProducts`, `POST /api/Order/OrderProduct`, and the
 * admin product catalogue under `/api/admin/products`.
 */
import { z } from 'zod';
import { isAmount, toCents } from '../money';
import { defineEndpoint } from './endpoint';
import { messageBody } from './errors';

/** Sort values of the Store page (spec part 1 §2): 1 Price High to Low (default), 2 Low to High. */
export const PRODUCT_SORT_HIGH_TO_LOW = 1;
export const PRODUCT_SORT_LOW_TO_HIGH = 2;

/** The Product entity of spec part 1 §3, plus the stock left (null: unlimited). */
export const product = z.object({
  id: z.number(),
  name: z.string(),
  price: z.number(),
  image: z.string().nullable(),
  category: z.string(),
  stock: z.number().nullable(),
});
export type Product = z.infer<typeof product>;

export const productsResponse = z.object({
  data: z.array(product),
  categories: z.array(z.string()),
});
export type ProductsResponse = z.infer<typeof productsResponse>;

export const orderProductBody = z.object({
  productId: z.coerce
    .number({ error: 'must be a product id' })
    .int('must be a product id')
    .positive('must be a product id')
    .max(Number.MAX_SAFE_INTEGER, 'must be a product id'),
});
export type OrderProductBody = z.input<typeof orderProductBody>;

export const MAX_PRICE = 100_000_000;

/** A price typed in a form or sent as JSON: a number (or numeric text) > 0 with at most 2 decimals. */
export const priceInput = z
  .union([z.number(), z.string().trim()], { error: 'must be a number' })
  .refine((v) => v !== '' && isAmount(v), 'must be a number with at most 2 decimals')
  .refine((v) => !isAmount(v) || toCents(v) > 0n, 'must be greater than 0')
  .refine((v) => !isAmount(v) || toCents(v) <= BigInt(MAX_PRICE) * 100n, `must be at most ${MAX_PRICE}`)
  .transform((v) => Number(v));

const imageUrl = z
  .string()
  .trim()
  .max(500, 'must be at most 500 characters')
  .refine((v) => v === '' || v.startsWith('/') || /^https?:\/\//.test(v), 'must be a web address or a /path')
  .nullish()
  .transform((v) => v || null);

export const productInput = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  price: priceInput,
  imageUrl,
  category: z.string({ error: 'is required' }).trim().min(1, 'is required').max(40, 'must be at most 40 characters'),
  stock: z
    .union([z.number(), z.null()], { error: 'must be a whole number or empty' })
    .optional()
    .refine(
      (v) => v === undefined || v === null || (Number.isInteger(v) && v >= 0 && v <= 1_000_000),
      'must be a whole number from 0 to 1000000',
    )
    .transform((v) => v ?? null),
  active: z.boolean().default(true),
});
export type ProductInput = z.input<typeof productInput>;

export const adminProduct = product.extend({
  active: z.boolean(),
  sold: z.number(),
  createdAt: z.string(),
});
export type AdminProduct = z.infer<typeof adminProduct>;
export const adminProductList = z.array(adminProduct);

export const productIdParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const storeMessages = {
  orderPlaced: (name: string) => `You bought ${name}. We'll deliver it soon — track it in My activity.`,
  insufficientPoints: 'You do not have enough points for this product.',
  soldOut: 'This product is sold out.',
  inactive: 'This product is no longer available.',
  productNotFound: 'Product not found.',
} as const;

export const productActiveBody = z.object({ active: z.boolean({ error: 'must be true or false' }) });

export const storeEndpoints = {
  products: defineEndpoint({
    method: 'GET',
    path: '/api/Product/GetProducts',
    access: 'visitor',
    response: productsResponse,
  }),
  order: defineEndpoint({
    method: 'POST',
    path: '/api/Order/OrderProduct',
    access: 'user',
    body: orderProductBody,
    response: messageBody,
  }),
};

/** Admin: the product catalogue. */
export const adminProductEndpoints = {
  list: defineEndpoint({ method: 'GET', path: '/api/admin/products', access: 'admin', response: adminProductList }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/admin/products',
    access: 'admin',
    body: productInput,
    response: adminProduct,
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/products/:id',
    access: 'admin',
    params: productIdParams,
    body: productInput,
    response: adminProduct,
  }),
  setActive: defineEndpoint({
    method: 'POST',
    path: '/api/admin/products/:id/active',
    access: 'admin',
    params: productIdParams,
    body: productActiveBody,
    response: adminProduct,
  }),
};
