/**
 * The chat simulator's RSA key pair: made once per process, never stored, trusted only when the
 * simulator is on (never in production). Simulated deliveries are signed with it exactly as Kick
 * signs, so the real verification path runs.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';

let pair: { publicKey: KeyObject; privateKey: KeyObject } | null = null;

export function simulatorKeyPair(): { publicKey: KeyObject; privateKey: KeyObject } {
  pair ??= generateKeyPairSync('rsa', { modulusLength: 2048 });
  return pair;
}
