/** The draw procedure's hashes (common/giveaway/draw) on Node's crypto. */
import { createHash, createHmac } from 'node:crypto';
import type { DrawCrypto } from '@kickback/common/giveaway/draw';

export const nodeDrawCrypto: DrawCrypto = {
  sha256Hex: async (text) => createHash('sha256').update(text, 'utf8').digest('hex'),
  hmacSha256: async (key, message) => new Uint8Array(createHmac('sha256', key).update(message, 'utf8').digest()),
};
