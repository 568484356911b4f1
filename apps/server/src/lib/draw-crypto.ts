/**
 * The provably fair draw's server side (common/giveaway/draw): its hashes on Node's crypto, and
 * the seeds committed before a draw (the giveaway's rolls, the raffles).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { DrawCrypto } from '@kickback/common/giveaway/draw';

export const nodeDrawCrypto: DrawCrypto = {
  sha256Hex: async (text) => createHash('sha256').update(text, 'utf8').digest('hex'),
  hmacSha256: async (key, message) => new Uint8Array(createHmac('sha256', key).update(message, 'utf8').digest()),
};

/** A seed from the CSPRNG and its SHA-256, the hash published before the seed is used. */
export function newSeed(): { serverSeed: string; seedHash: string } {
  const serverSeed = randomBytes(32).toString('hex');
  return { serverSeed, seedHash: createHash('sha256').update(serverSeed, 'utf8').digest('hex') };
}
