/**
 * The state of an outside service that one process at a time works on, kept in the database
 * (`integration_status`) so that every process shows the same on Admin → Integrations: the Kick
 * event subscriptions, which the processes check in turns (docs/features/kick-events-and-bans.md).
 * Like IntegrationStatus, a success keeps the last failure for the page and clears `down`.
 */
import type { Db } from '../db/client';
import { integrationStatus } from '../db/schema/integration-status';
import type { Clock } from '../lib/clock';
import type { SourceState, StatusSource } from './status-sources';

export class SharedStatus {
  constructor(
    private readonly db: () => Db,
    private readonly clock: Clock,
  ) {}

  succeeded(source: StatusSource, detail: string | null = null, nextAttemptAt: Date | null = null) {
    return this.record(source, { lastSuccessAt: this.clock.now(), down: false, detail, nextAttemptAt });
  }

  failed(source: StatusSource, reason: string, nextAttemptAt: Date | null = null) {
    const lastFailure = reason.slice(0, 300);
    return this.record(source, { lastFailureAt: this.clock.now(), lastFailure, down: true, nextAttemptAt });
  }

  /** Writes `fields` over the source's row (made when missing); the other fields keep their values. */
  private async record(source: StatusSource, fields: Omit<typeof integrationStatus.$inferInsert, 'source'>) {
    await this.db()
      .insert(integrationStatus)
      .values({ source, ...fields })
      .onConflictDoUpdate({ target: integrationStatus.source, set: fields });
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
