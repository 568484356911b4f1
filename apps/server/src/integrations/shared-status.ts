/**
 * The state of an outside service that one process at a time works on, kept in the database
 * (`integration_status`) so that every process shows the same on Admin → Integrations: the Kick
 * event subscriptions, which the processes check in turns (docs/features/kick-events-and-bans.md).
 * Like IntegrationStatus, a success keeps the last failure for the page and clears `down`.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { integrationStatus } from '../db/schema/integration-status';
import type { Clock } from '../lib/clock';
import type { SourceState, StatusSource } from './status-sources';

export class SharedStatus {
  constructor(
    private readonly db: () => Db,
    private readonly clock: Clock,
  ) {}

  async succeeded(source: StatusSource, detail: string | null = null, nextAttemptAt: Date | null = null) {
    const row = { source, lastSuccessAt: this.clock.now(), down: false, detail, nextAttemptAt };
    await this.db()
      .insert(integrationStatus)
      .values(row)
      .onConflictDoUpdate({
        target: integrationStatus.source,
        set: {
          lastSuccessAt: sql`excluded.last_success_at`,
          down: false,
          detail: sql`excluded.detail`,
          nextAttemptAt: sql`excluded.next_attempt_at`,
        },
      });
  }

  async failed(source: StatusSource, reason: string, nextAttemptAt: Date | null = null) {
    const row = {
      source,
      lastFailureAt: this.clock.now(),
      lastFailure: reason.slice(0, 300),
      down: true,
      nextAttemptAt,
    };
    await this.db()
      .insert(integrationStatus)
      .values(row)
      .onConflictDoUpdate({
        target: integrationStatus.source,
        set: {
          lastFailureAt: sql`excluded.last_failure_at`,
          lastFailure: sql`excluded.last_failure`,
          down: true,
          nextAttemptAt: sql`excluded.next_attempt_at`,
        },
      });
  }

  /** Every shared source's state (a source no process reported yet has none). */
  async all(): Promise<Map<StatusSource, SourceState>> {
    const rows = await this.db().select().from(integrationStatus);
    return new Map(
      rows.map((r) => [
        r.source as StatusSource,
        {
          lastSuccessAt: r.lastSuccessAt,
          lastFailureAt: r.lastFailureAt,
          lastFailure: r.lastFailure,
          down: r.down,
          nextAttemptAt: r.nextAttemptAt,
          detail: r.detail,
        },
      ]),
    );
  }
}
