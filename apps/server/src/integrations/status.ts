/**
 * What each outside service last did in this process, for the admin Integrations page and
 * `/healthz?details=1`: the last success, the last failure with its reason, whether the source is
 * down now and when it is tried next. Adapters report here as they work; the page reads it.
 * (Facts several processes share — partner polls, the Kick bot token, webhook deliveries — are
 * read from the database by the page instead; a source one process at a time works on reports to
 * `app.sharedStatus` as well, ./shared-status.ts.)
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../lib/plugin';
import type { Clock } from '../lib/clock';
import { SharedStatus } from './shared-status';
import type { SourceState, StatusSource } from './status-sources';


const empty = (): SourceState => ({
  lastSuccessAt: null,
  lastFailureAt: null,
  lastFailure: null,
  down: false,
  nextAttemptAt: null,
  detail: null,
});

export class IntegrationStatus {
  private readonly states = new Map<StatusSource, SourceState>();

  constructor(private readonly clock: Clock) {}

  private state(source: StatusSource): SourceState {
    let s = this.states.get(source);
    if (!s) {
      s = empty();
      this.states.set(source, s);
    }
    return s;
  }

  succeeded(source: StatusSource, detail: string | null = null, nextAttemptAt: Date | null = null): void {
    const s = this.state(source);
    s.lastSuccessAt = this.clock.now();
    s.down = false;
    s.detail = detail;
    s.nextAttemptAt = nextAttemptAt;
  }

  failed(source: StatusSource, reason: string, nextAttemptAt: Date | null = null): void {
    const s = this.state(source);
    s.lastFailureAt = this.clock.now();
    s.lastFailure = reason.slice(0, 300);
    s.down = true;
    s.nextAttemptAt = nextAttemptAt;
  }

  get(source: StatusSource): SourceState {
    return { ...this.state(source) };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    integrationStatus: IntegrationStatus;
    sharedStatus: SharedStatus;
  }
}

export const integrationStatusPlugin = plugin({
  name: 'integrationStatusPlugin',
})(async (app: FastifyInstance) => {
  app.decorate('integrationStatus', new IntegrationStatus(app.clock));
  app.decorate('sharedStatus', new SharedStatus(() => app.db, app.clock));
});
