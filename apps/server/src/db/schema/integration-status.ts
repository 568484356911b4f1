import { boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * An outside service's state as the newest process that worked with it left it, one row a source
 * (1190_integration_status.sql): what every process's Admin → Integrations shows for it.
 */
export const integrationStatus = pgTable('integration_status', {
  source: text('source').primaryKey(),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
  lastFailure: text('last_failure'),
  down: boolean('down').notNull().default(false),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  detail: text('detail'),
});
