import { sql } from 'drizzle-orm';
import { bigint, boolean, index, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const partnerLinkFields = ['clashId', 'rustMagicId', 'roobetName', 'casesId'] as const;
export type PartnerLinkField = (typeof partnerLinkFields)[number];
export const partnerLinkStates = ['claimed', 'verified', 'rejected', 'unlinked'] as const;
export type PartnerLinkState = (typeof partnerLinkStates)[number];

/** 0600_partner_links.sql: one row per (user, partner field) claim and what became of it. */
export const partnerLinks = pgTable(
  'partner_links',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    field: text('field', { enum: partnerLinkFields }).notNull(),
    value: text('value').notNull(),
    nameKey: text('name_key').notNull(),
    externalId: text('external_id'),
    state: text('state', { enum: partnerLinkStates }).notNull(),
    proofCode: text('proof_code'),
    heldPoints: numeric('held_points', { precision: 18, scale: 2 }).notNull().default('0'),
    creditedPoints: numeric('credited_points', { precision: 18, scale: 2 }).notNull().default('0'),
    migrated: boolean('migrated').notNull().default(false),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by'),
    decisionReason: text('decision_reason'),
  },
  (t) => [
    uniqueIndex('partner_links_name_unique')
      .on(t.field, t.nameKey)
      .where(sql`${t.state} IN ('claimed', 'verified')`),
    uniqueIndex('partner_links_external_unique')
      .on(t.field, t.externalId)
      .where(sql`${t.state} IN ('claimed', 'verified') AND ${t.externalId} IS NOT NULL`),
    uniqueIndex('partner_links_one_per_field')
      .on(t.userId, t.field)
      .where(sql`${t.state} IN ('claimed', 'verified')`),
    index('partner_links_state').on(t.state, t.claimedAt),
  ],
);
export type PartnerLinkRow = typeof partnerLinks.$inferSelect;

export const partnerDisputes = pgTable(
  'partner_disputes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    linkId: bigint('link_id', { mode: 'number' })
      .notNull()
      .references(() => partnerLinks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    value: text('value').notNull(),
    note: text('note').notNull().default(''),
    status: text('status', { enum: ['open', 'awarded', 'dismissed'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by'),
    decisionReason: text('decision_reason'),
  },
  (t) => [
    uniqueIndex('partner_disputes_one_open')
      .on(t.linkId, t.userId)
      .where(sql`${t.status} = 'open'`),
  ],
);
export type PartnerDisputeRow = typeof partnerDisputes.$inferSelect;
