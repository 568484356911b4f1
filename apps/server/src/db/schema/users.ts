import { sql } from 'drizzle-orm';
import { boolean, index, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { roles } from '@kickback/common/http/auth';
import { LOCALES } from '@kickback/common/i18n/locales';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    steamId: text('steam_id').notNull().unique(),
    username: text('username').notNull(),
    avatarUrl: text('avatar_url'),
    role: text('role', { enum: roles }).notNull().default('User'),
    points: numeric('points', { precision: 18, scale: 2 }).notNull().default('0'),
    gems: numeric('gems', { precision: 18, scale: 2 }).notNull().default('0'),
    /** Points a lost partner dispute could not take back; blocks spending until paid off (0600). */
    pointsDebt: numeric('points_debt', { precision: 18, scale: 2 }).notNull().default('0'),
    excluded: boolean('excluded').notNull().default(false),
    showNameOnBoards: boolean('show_name_on_boards').notNull().default(false),
    kickId: text('kick_id').unique(),
    kickUsername: text('kick_username'),
    /** When the Kick account was linked (1260): the link-age rule of docs/features/fair-earning.md. */
    kickLinkedAt: timestamp('kick_linked_at', { withTimezone: true }),
    discordId: text('discord_id').unique(),
    discordUsername: text('discord_username'),
    /** Discord refused our DMs (50007); not retried until they link Discord again. */
    discordDmClosedAt: timestamp('discord_dm_closed_at', { withTimezone: true }),
    clashId: text('clash_id'),
    rustMagicId: text('rustmagic_id'),
    roobetName: text('roobet_name'),
    casesId: text('cases_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /** When the user confirmed the 18+ gate (0920); null until then. */
    ageConfirmedAt: timestamp('age_confirmed_at', { withTimezone: true }),
    /** When the account was removed (1130): the row stays as a tombstone named "removed account". */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    /** The viewer's own language (1340); null follows the site (docs/features/languages.md#settings). */
    language: text('language', { enum: LOCALES }),
  },
  (t) => [
    index('users_username_lower').on(sql`lower(${t.username}) text_pattern_ops`),
    // Who owes points: a batch of earnings pays their debts through it (1330).
    index('users_in_debt')
      .on(t.id)
      .where(sql`${t.pointsDebt} > 0`),
  ],
);

export type UserRow = typeof users.$inferSelect;
