/**
 * The public keys webhook signatures are checked against: the PEM configured in
 * KICK_WEBHOOK_PUBLIC_KEY, Kick's own key (fetched from the API with the app token when a Kick app
 * is configured and no PEM is given; fetched again, at most every 10 minutes, when a signature
 * fails, in case Kick rotated it) and, in dev and test, the chat simulator's key.
 *
 * Without Kick's key every webhook is refused, so a failed fetch is retried at once a few times with
 * growing pauses, then again on later deliveries with a growing gap (30 s doubling to 15 min), and
 * each failure is logged as an error and shown on the Integrations page, never left quiet.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { KickConfig } from '../../config';
import type { Clock } from '../../lib/clock';
import type { KickApi } from './api';
import type { IntegrationStatus } from '../status';
import { simulatorKeyPair } from './simulator-keys';
import { errorReason } from '../../lib/error-reason';

const REFETCH_AFTER_MS = 10 * 60 * 1000;
/** Without any Kick key yet, the gap before the next fetch: doubling from the first to the last. */
const MISSING_KEY_GAP_MS = { first: 30_000, max: 15 * 60_000 };
/** Pauses between the attempts of one fetch. */
const ATTEMPT_PAUSES_MS = [500, 2000];

export interface WebhookKeyring {
  keys(): Promise<KeyObject[]>;
  /** After a signature failed: true when fresh keys were loaded and verification may be retried. */
  refresh(): Promise<boolean>;
}

export function createWebhookKeyring(
  /** The Kick configuration, or a function reading the current one (the app's keys may be set while running). */
  kickConfig: KickConfig | (() => KickConfig),
  api: KickApi,
  clock: Clock,
  log: FastifyBaseLogger,
  opts: { status?: IntegrationStatus; pausesMs?: readonly number[] } = {},
): WebhookKeyring {
  const pauses = opts.pausesMs ?? ATTEMPT_PAUSES_MS;
  const current = typeof kickConfig === 'function' ? kickConfig : () => kickConfig;
  const config = current();
  const fixed: KeyObject[] = [];
  if (config.webhookPublicKey) fixed.push(createPublicKey(config.webhookPublicKey));
  const fetchFromKick = () => Boolean(current().app) && !config.webhookPublicKey;
  let kickKey: KeyObject | null = null;
  let fetchedAt = -Infinity;
  let failures = 0;
  let inflight: Promise<boolean> | null = null;

  const missingGap = () => Math.min(MISSING_KEY_GAP_MS.max, MISSING_KEY_GAP_MS.first * 2 ** Math.max(0, failures - 1));

  const attempt = async (): Promise<string> => {
    let lastError: unknown;
    for (let i = 0; i <= pauses.length; i += 1) {
      try {
        return await api.publicKey();
      } catch (err) {
        lastError = err;
        const pause = pauses[i];
        if (pause !== undefined) await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
    throw lastError;
  };

  const fetchKickKey = (): Promise<boolean> => {
    inflight ??= (async () => {
      try {
        const next = createPublicKey(await attempt());
        fetchedAt = clock.now().getTime();
        const changed = !kickKey || !kickKey.equals(next);
        kickKey = next;
        failures = 0;
        opts.status?.succeeded('kick.publicKey', 'fetched from Kick');
        return changed;
      } catch (err) {
        fetchedAt = clock.now().getTime();
        failures += 1;
        const reason = errorReason(err);
        const nextAt = new Date(fetchedAt + missingGap());
        if (kickKey) {
          log.warn({ err: reason }, 'could not fetch the Kick webhook public key again; keeping the one we have');
        } else {
          log.error(
            { err: reason, attempts: pauses.length + 1, nextAttemptAt: nextAt.toISOString() },
            'no Kick webhook public key: every Kick webhook is refused until one is fetched (or set KICK_WEBHOOK_PUBLIC_KEY)',
          );
        }
        opts.status?.failed('kick.publicKey', `Kick public key: ${reason}`, kickKey ? null : nextAt);
        return false;
      } finally {
        inflight = null;
      }
    })();
    return inflight;
  };

  return {
    async keys() {
      if (fetchFromKick() && !kickKey && clock.now().getTime() - fetchedAt >= missingGap()) {
        await fetchKickKey();
      }
      const keys = [...fixed];
      if (kickKey) keys.push(kickKey);
      if (config.simulator) keys.push(simulatorKeyPair().publicKey);
      return keys;
    },
    async refresh() {
      if (!fetchFromKick() || clock.now().getTime() - fetchedAt < REFETCH_AFTER_MS) return false;
      return fetchKickKey();
    },
  };
}
