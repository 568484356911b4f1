/** Test helpers for support rewards and channel points: the documented Kick payloads, delivered signed. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LightMyRequestResponse } from 'fastify';
import { ulid } from '../src/lib/ulid';
import type { TestApp } from './app';
import { postDelivery, signedDelivery } from './kick';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/integrations/fixtures');

/** A fixture of integrations/fixtures, parsed (a fresh copy each call). */
export function kickFixture<T extends object = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(path.join(fixtures, name), 'utf8')) as T;
}

export interface KickPerson {
  user_id: number | null;
  username: string | null;
  [key: string]: unknown;
}

export const person = (id: string, username: string): KickPerson => ({
  is_anonymous: false,
  user_id: Number(id),
  username,
  is_verified: false,
  profile_picture: '',
  channel_slug: username.toLowerCase(),
  identity: null,
});

let giftSeq = 0;

/**
 * A gifted-subs event (the documented shape) from `gifter` (null: anonymous) to `giftees`. Each call
 * is a new gift (its own Kick `created_at`) unless `createdAt` names the one it repeats.
 */
export function giftsPayload(gifter: KickPerson | null, giftees: KickPerson[], createdAt?: string) {
  const base = kickFixture<Record<string, unknown>>('kick-webhook-gifts-anonymous.json');
  if (gifter) base.gifter = gifter;
  base.giftees = giftees;
  base.created_at = createdAt ?? new Date(Date.UTC(2025, 1, 21, 23, 23, 36) + ++giftSeq * 1000).toISOString();
  return base;
}

/** Delivers `payload` as event `type`, signed like Kick, with a fresh message id unless given. */
export function deliver(
  t: TestApp,
  type: string,
  payload: unknown,
  messageId: string = ulid(t.clock.now()),
): Promise<LightMyRequestResponse> {
  return postDelivery(t, signedDelivery(payload, { type, messageId, at: t.clock.now() }));
}
