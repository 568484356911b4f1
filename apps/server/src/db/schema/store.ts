import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users';

export const products = pgTable(
  'products',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    price: numeric('price', { precision: 18, scale: 2 }).notNull(),
    imageUrl: text('image_url'),
    category: text('category').notNull(),
    stock: integer('stock'),
    active: boolean('active').notNull().default(true),
    delivery: text('delivery', { enum: ['none', 'steam_trade_url', 'email', 'code'] })
      .notNull()
      .default('none'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Store limits (docs/features/store-limits.md): at most `limitCount` per buyer per `limitWindow`. */
    limitCount: integer('limit_count'),
    limitWindow: text('limit_window', { enum: ['day', 'week', 'cycle', 'ever'] }),
    /** The partner whose leaderboard cycle is the window (`cycle` only). */
    limitSite: smallint('limit_site'),
    cooldownMinutes: integer('cooldown_minutes'),
    /** Who may buy: null everyone, else a `productRestriction` of @kickback/common/http/store. */
    restriction: jsonb('restriction'),
  },
  (t) => [index('products_active_category').on(t.active, t.category)],
);
export type ProductRow = typeof products.$inferSelect;

export const orders = pgTable(
  'orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id),
    productName: text('product_name').notNull(),
    price: numeric('price', { precision: 18, scale: 2 }).notNull(),
    deliveryDetail: text('delivery_detail'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('orders_user_newest').on(t.userId, t.id.desc())],
);

/**
 * A product's pool of codes (0910_store_delivery.sql, 0970_store_codes_unique.sql): sealed, hashed
 * (unique across every pool, sold or not), masked tail.
 */
export const productCodes = pgTable(
  'product_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id),
    codeHash: text('code_hash').notNull().unique('product_codes_code_unique'),
    /**
     * What the hash was taken over: 1 the code as typed (before 1180, or by an older release's
     * process), 2 its normal form (codeKeyOf; uploads write it).
     */
    hashVersion: smallint('hash_version').notNull().default(1),
    sealed: text('sealed').notNull(),
    tail: text('tail').notNull(),
    orderId: bigint('order_id', { mode: 'number' })
      .unique('product_codes_order_once')
      .references(() => orders.id),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    soldAt: timestamp('sold_at', { withTimezone: true }),
    /** Withdrawn from sale: an unsold duplicate found by the re-hash (modules/store/rehash.ts), kept for the audit. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [
    index('product_codes_product').on(t.productId, t.id),
    index('product_codes_available')
      .on(t.productId, t.id)
      .where(sql`order_id IS NULL AND withdrawn_at IS NULL`),
    index('product_codes_old_hash')
      .on(t.id)
      .where(sql`hash_version < 2`),
  ],
);

export const chatPointMinutes = pgTable(
  'chat_point_minutes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.minute] }), index('chat_point_minutes_minute').on(t.minute)],
);

/** One row per (buyer, limited product), locked by each purchase of it (modules/store/limits.ts). */
export const storePurchaseSlots = pgTable(
  'store_purchase_slots',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] })],
);

/** "Notify me when back in stock": answered (and deleted) by the next restock. */
export const storeRestockRequests = pgTable(
  'store_restock_requests',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] }), index('store_restock_requests_product').on(t.productId)],
);
