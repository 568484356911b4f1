/**
 * What a support event is, whatever delivery brought it (docs/features/support-rewards.md#one-reward-per-event):
 * Kick re-sends some events under new message ids, so a reward and a raffle ticket grant are keyed
 * by the event's own content — its type, the supporter, the gifter and giftees, the count or
 * amount, and Kick's own timestamp — never by the delivery id. An event without Kick's timestamp
 * is placed in a window of the time it was received: the same content in this window or the one
 * before is the same event.
 */
import { createHash } from 'node:crypto';
import { kickDate } from '../../integrations/kick/events';

/** How long the same content without Kick's timestamp counts as one event (at least, at most twice). */
export const CONTENT_WINDOW_MS = 10 * 60_000;

export interface EventContent {
  /** The Kick event type, e.g. `channel.subscription.gifts`. */
  type: string;
  /** Who is rewarded and anything else that tells two real events apart (ids, counts, amounts). */
  parts: ReadonlyArray<string | number | null | undefined>;
  /** Kick's `created_at`, as sent. */
  kickCreatedAt: string | null | undefined;
}

/**
 * The keys under which this event may already be kept, the one to keep it under first. With Kick's
 * timestamp there is one; without, the current window's and the previous one's.
 */
export function contentKeys(event: EventContent, receivedAt: Date): string[] {
  // The parts hashed (a KICKs message may be long): the key stays short and the same for a repeat.
  const parts = JSON.stringify(event.parts.map((p) => (p === null || p === undefined ? null : String(p))));
  const body = `${event.type}:${createHash('sha256').update(parts).digest('base64url').slice(0, 27)}`;
  const at = kickDate(event.kickCreatedAt);
  if (at) return [`${body}@${at.toISOString()}`];
  const window = Math.floor(receivedAt.getTime() / CONTENT_WINDOW_MS);
  return [`${body}@w${window}`, `${body}@w${window - 1}`];
}
