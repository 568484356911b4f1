/**
 * The public keys webhook signatures are checked against: the PEM configured in
 * KICK_WEBHOOK_PUBLIC_KEY, Kick's own key (fetched from the API when a Kick app is configured and
 * no PEM is given; fetched again, at most every 10 minutes, when a signature fails, in case Kick
 * rotated it) and, in dev and test, the chat simulator's key.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { KickConfig } from '../../config';
import type { Clock } from '../../lib/clock';
import type { KickApi } from './api';
import { simulatorKeyPair } from './simulator-keys';

const REFETCH_AFTER_MS = 10 * 60 * 1000;
/** Without any Kick key yet (Kick unreachable at start), try again at most this often. */
const RETRY_MISSING_KEY_MS = 60 * 1000;

export interface WebhookKeyring {
  keys(): Promise<KeyObject[]>;
  /** After a signature failed: true when fresh keys were loaded and verification may be retried. */
  refresh(): Promise<boolean>;
}

export function createWebhookKeyring(
  config: KickConfig,
  api: KickApi,
  clock: Clock,
  log: FastifyBaseLogger,
): WebhookKeyring {
  const fixed: KeyObject[] = [];
  if (config.webhookPublicKey) fixed.push(createPublicKey(config.webhookPublicKey));
  const fetchFromKick = Boolean(config.app) && !config.webhookPublicKey;
  let kickKey: KeyObject | null = null;
  let fetchedAt = -Infinity;
  let inflight: Promise<boolean> | null = null;

  const fetchKickKey = (): Promise<boolean> => {
    inflight ??= (async () => {
      fetchedAt = clock.now().getTime();
      try {
        const pem = await api.publicKey();
        const next = createPublicKey(pem);
        const changed = !kickKey || !kickKey.equals(next);
        kickKey = next;
        return changed;
      } catch (err) {
        log.error({ err }, 'could not fetch the Kick webhook public key');
        return false;
      } finally {
        inflight = null;
      }
    })();
    return inflight;
  };

  return {
    async keys() {
      if (fetchFromKick && !kickKey && clock.now().getTime() - fetchedAt > RETRY_MISSING_KEY_MS) {
        await fetchKickKey();
      }
      const keys = [...fixed];
      if (kickKey) keys.push(kickKey);
      if (config.simulator) keys.push(simulatorKeyPair().publicKey);
      return keys;
    },
    async refresh() {
      if (!fetchFromKick || clock.now().getTime() - fetchedAt < REFETCH_AFTER_MS) return false;
      return fetchKickKey();
    },
  };
}
