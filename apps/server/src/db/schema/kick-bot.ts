import { boolean, integer, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The Kick bot's user token (one row): access and refresh token sealed with KICK_TOKEN_KEY, when
 * the access token expires, and a lease so only one process refreshes at a time.
 */
export const kickBotTokens = pgTable('kick_bot_tokens', {
  id: smallint('id').primaryKey().default(1),
  kickUserId: text('kick_user_id').notNull(),
  kickUsername: text('kick_username').notNull(),
  scope: text('scope').notNull(),
  accessToken: text('access_token').notNull(),
  refreshToken: text('refresh_token').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  connectedBy: uuid('connected_by').references(() => users.id, { onDelete: 'set null' }),
  connectedAt: timestamp('connected_at', { withTimezone: true }).notNull(),
  refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
  refreshCount: integer('refresh_count').notNull().default(0),
  refreshLeaseUntil: timestamp('refresh_lease_until', { withTimezone: true }),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
});
export type KickBotTokenRow = typeof kickBotTokens.$inferSelect;

/** A "Connect Kick bot" in progress: the OAuth state and its PKCE verifier (sealed), for 10 minutes. */
export const kickBotOauthStates = pgTable('kick_bot_oauth_states', {
  state: text('state').primaryKey(),
  verifier: text('verifier').notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'cascade' }),
  /** Which token the flow connects: 1 the streamer's account, 2 a separate bot account. */
  slot: smallint('slot').notNull().default(1),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** The stream's live state as Kick's last `livestream.status.updated` said (one row). */
export const kickLiveState = pgTable('kick_live_state', {
  id: smallint('id').primaryKey().default(1),
  isLive: boolean('is_live').notNull(),
  title: text('title'),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  /** The Kick timestamp of the `livestream.metadata.updated` that set the title (late older ones lose). */
  titleChangedAt: timestamp('title_changed_at', { withTimezone: true }),
  category: text('category'),
});
