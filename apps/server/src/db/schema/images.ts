/** Uploaded images (0990_images.sql): one row per distinct re-encoded picture, keyed by its hash. */
import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea } from './columns';
import { users } from './users';

export const images = pgTable('images', {
  /** SHA-256 of `bytes`, lowercase hex: the image's name in its URL and its ETag. */
  hash: text('hash').primaryKey(),
  contentType: text('content_type', { enum: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] }).notNull(),
  bytes: bytea('bytes').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type ImageRow = typeof images.$inferSelect;
