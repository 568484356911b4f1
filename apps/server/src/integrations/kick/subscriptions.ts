/**
 * Keeps the Kick app's webhook event subscriptions in place for the streamer's channel. Kick
 * unsubscribes an app whose webhook keeps failing, so this runs at start and again now and then.
 * It creates only what is missing, and several processes (on PostgreSQL) take turns through
 * `oneAtATime`: two that listed at once would both create the missing events, and Kick keeps
 * duplicate subscriptions, each delivering every event under its own message id — a sub or gift
 * would then be paid twice (docs/features/kick-events-and-bans.md).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { IntegrationStatus } from '../status';
import type { KickApi } from './api';
import { KICK_WEBHOOK_EVENTS } from './events';
import { errorReason } from '../../lib/error-reason';

/** The advisory lock the processes of one database take turns with (`oneAtATime`). */
export const KICK_SUBSCRIPTIONS_LOCK = 0x6b_7375; // "ksu"

/** Runs `fn` while no other process runs it (a database advisory lock), or just runs it. */
export type OneAtATime = <T>(fn: () => Promise<T>) => Promise<T>;

const alone: OneAtATime = (fn) => fn();

export interface EnsureResult {
  existing: string[];
  created: string[];
  failed: string[];
}

export async function ensureKickSubscriptions(
  api: KickApi,
  broadcasterUserId: string,
  events: readonly string[] = KICK_WEBHOOK_EVENTS,
): Promise<EnsureResult> {
  const current = await api.listSubscriptions();
  const have = new Set(
    current
      .filter(
        (s) => s.broadcaster_user_id === broadcasterUserId && (s.method ?? 'webhook') === 'webhook' && s.version === 1,
      )
      .map((s) => s.event),
  );
  const missing = events.filter((e) => !have.has(e));
  const result: EnsureResult = { existing: events.filter((e) => have.has(e)), created: [], failed: [] };
  if (missing.length === 0) return result;
  const answers = await api.createSubscriptions(broadcasterUserId, missing);
  for (const name of missing) {
    const answer = answers.find((a) => a.name === name);
    if (answer && !answer.error) result.created.push(name);
    else result.failed.push(name);
  }
  return result;
}

const RECHECK_MS = 6 * 60 * 60 * 1000;
const RETRY_MS = [5_000, 30_000, 120_000, 600_000];

/** Runs ensureKickSubscriptions now, retries on failure with backoff, then re-checks every 6 hours. */
export function keepKickSubscriptions(
  api: KickApi,
  broadcasterUserId: string,
  log: FastifyBaseLogger,
  status?: IntegrationStatus,
  /** The events to keep subscribed (read at each check: the features that are on). */
  events: () => readonly string[] = () => KICK_WEBHOOK_EVENTS,
  oneAtATime: OneAtATime = alone,
): () => void {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let failures = 0;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void run(), ms);
    timer.unref();
  };
  const run = async () => {
    try {
      const result = await oneAtATime(() => ensureKickSubscriptions(api, broadcasterUserId, events()));
      if (result.failed.length > 0) throw new Error(`Kick refused subscriptions: ${result.failed.join(', ')}`);
      failures = 0;
      log.info({ created: result.created, existing: result.existing }, 'kick event subscriptions in place');
      status?.succeeded(
        'kick.subscriptions',
        `${result.existing.length + result.created.length} events subscribed`,
        new Date(Date.now() + RECHECK_MS),
      );
      schedule(RECHECK_MS);
    } catch (err) {
      const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] ?? RECHECK_MS;
      failures += 1;
      log.error({ err, retryInMs: delay }, 'kick event subscriptions could not be ensured');
      status?.failed('kick.subscriptions', errorReason(err), new Date(Date.now() + delay));
      schedule(delay);
    }
  };
  void run();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
