/**
 * Keeps the Kick app's webhook event subscriptions in place for the streamer's channel. Kick
 * unsubscribes an app whose webhook keeps failing, so this runs at start and again now and then.
 * It creates only what is missing, and several processes (on PostgreSQL) take turns through
 * `oneAtATime`: two that listed at once would both create the missing events, and Kick keeps
 * duplicate subscriptions, each delivering every event under its own message id — a sub or gift
 * would then be paid twice (docs/features/kick-events-and-bans.md).
 */
import type { FastifyBaseLogger } from 'fastify';
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

/** Where a check's outcome goes: this process's status, and the one every process shows (./shared-status.ts). */
export interface SubscriptionReport {
  succeeded(source: 'kick.subscriptions', detail: string, nextAttemptAt: Date): void | Promise<void>;
  failed(source: 'kick.subscriptions', reason: string, nextAttemptAt: Date): void | Promise<void>;
}

/**
 * Runs ensureKickSubscriptions now, retries on failure with backoff, then re-checks every 6 hours.
 * Each check reports to `status` (this process) and to `shared` (what every process shows) in its
 * turn, so the newest check is the last one written there.
 */
export function keepKickSubscriptions(
  api: KickApi,
  broadcasterUserId: string,
  log: FastifyBaseLogger,
  status?: SubscriptionReport,
  /** The events to keep subscribed (read at each check: the features that are on). */
  events: () => readonly string[] = () => KICK_WEBHOOK_EVENTS,
  oneAtATime: OneAtATime = alone,
  shared?: SubscriptionReport,
): () => void {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let failures = 0;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void run(), ms);
    timer.unref();
  };
  const failed = (err: unknown): { delay: number; reason: string; next: Date } => {
    const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] ?? RECHECK_MS;
    failures += 1;
    log.error({ err, retryInMs: delay }, 'kick event subscriptions could not be ensured');
    return { delay, reason: errorReason(err), next: new Date(Date.now() + delay) };
  };
  const report = async (how: (to: SubscriptionReport) => void | Promise<void>) => {
    if (status) await how(status);
    if (shared) {
      try {
        await how(shared);
      } catch (err) {
        log.warn({ err }, 'kick event subscription state could not be shared');
      }
    }
  };
  /** One check and its report, in this process's turn; answers when to check again. */
  const check = async (): Promise<number> => {
    try {
      const result = await ensureKickSubscriptions(api, broadcasterUserId, events());
      if (result.failed.length > 0) throw new Error(`Kick refused subscriptions: ${result.failed.join(', ')}`);
      failures = 0;
      log.info({ created: result.created, existing: result.existing }, 'kick event subscriptions in place');
      const detail = `${result.existing.length + result.created.length} events subscribed`;
      const next = new Date(Date.now() + RECHECK_MS);
      await report((to) => to.succeeded('kick.subscriptions', detail, next));
      return RECHECK_MS;
    } catch (err) {
      const { delay, reason, next } = failed(err);
      await report((to) => to.failed('kick.subscriptions', reason, next));
      return delay;
    }
  };
  const run = async () => {
    let delay: number;
    try {
      delay = await oneAtATime(check);
    } catch (err) {
      // No turn (the database is away): this process says so; the shared state cannot be written.
      const f = failed(err);
      await status?.failed('kick.subscriptions', f.reason, f.next);
      delay = f.delay;
    }
    schedule(delay);
  };
  void run();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
