/**
 * The handlers of Kick's webhook events, per event type. A module registers
 * `(tx, payload, meta, after) => Promise<void>`; the webhook runs every handler of a delivery's type
 * inside the transaction that claims the delivery, so the claim and the handlers' writes commit
 * together or not at all (docs/features/kick-events-and-bans.md). `payload` has passed the event's
 * schema (./events `KICK_EVENT_SCHEMAS`); a handler parses it again with that schema for its types.
 * Side effects (broadcasts, chat replies) go to `after`, which runs only once the transaction committed.
 */
import type { Tx } from '../../db/client';
import type { AfterCommit } from '../../lib/after-commit';
import type { KickEventType } from './events';

export interface KickEventMeta {
  /** `Kick-Event-Message-Id`: the delivery's idempotency key. */
  messageId: string;
  type: KickEventType;
  version: string;
  /** Our clock when the delivery arrived. */
  receivedAt: Date;
  /** `Kick-Event-Message-Timestamp`: when Kick sent it (orders deliveries that arrive out of order). */
  sentAt: Date;
}

export type KickEventHandler = (tx: Tx, payload: unknown, meta: KickEventMeta, after: AfterCommit) => Promise<void>;

export class KickEventHandlers {
  private readonly byType = new Map<KickEventType, Array<{ name: string; handler: KickEventHandler }>>();

  /** Adds a handler for one event type; handlers of a type run in the order they were registered. */
  register(type: KickEventType, name: string, handler: KickEventHandler): void {
    const list = this.byType.get(type) ?? [];
    list.push({ name, handler });
    this.byType.set(type, list);
  }

  of(type: KickEventType): ReadonlyArray<{ name: string; handler: KickEventHandler }> {
    return this.byType.get(type) ?? [];
  }

  private readonly switches = new Map<string, () => boolean>();

  /**
   * A feature with no event of its own (chat moderation) says when it is on, so its scopes are
   * asked for then (./features.ts).
   */
  switchFeature(featureId: string, isOn: () => boolean): void {
    this.switches.set(featureId, isOn);
  }

  featureSwitchedOn(featureId: string): boolean {
    return this.switches.get(featureId)?.() ?? false;
  }

  /** Event types at least one handler wants (besides chat, which the pipeline takes). */
  types(): KickEventType[] {
    return [...this.byType.keys()];
  }
}
