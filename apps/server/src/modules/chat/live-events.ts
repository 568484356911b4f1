/**
 * The stream's state from Kick's events, registered with the webhook's handlers: subscriptions
 * (the subscriber facts the giveaway reads), `livestream.status.updated` (live or not) and
 * `livestream.metadata.updated` (title, category). Kick may deliver them out of order, so each
 * write keeps the newer of what is stored and what arrived: a status by its started/ended time
 * (else the delivery's Kick timestamp), a title by the delivery's Kick timestamp.
 */
import { sql } from 'drizzle-orm';
import { kickLiveState } from '../../db/schema/kick-bot';
import type { KickEventHandlers } from '../../integrations/kick/event-handlers';
import { kickDate, livestreamMetadata, livestreamStatus, subscribersFromWebhook } from '../../integrations/kick/events';
import { recordSubscribers } from './activity';

export function registerLiveEvents(handlers: KickEventHandlers, liveChanged: (isLive: boolean) => void): void {
  for (const type of [
    'channel.subscription.new',
    'channel.subscription.renewal',
    'channel.subscription.gifts',
  ] as const) {
    handlers.register(type, 'chat.subscribers', async (tx, payload, meta) => {
      await recordSubscribers(tx, subscribersFromWebhook(type, payload) ?? [], meta.receivedAt);
    });
  }

  handlers.register('livestream.status.updated', 'chat.live', async (tx, payload, meta, after) => {
    const event = livestreamStatus.parse(payload);
    const changedAt = kickDate(event.is_live ? event.started_at : event.ended_at) ?? meta.sentAt;
    const t = kickLiveState;
    const state = { isLive: event.is_live, changedAt, receivedAt: meta.receivedAt };
    const rows = await tx
      .insert(t)
      .values({ id: 1, ...state, title: event.title ?? null })
      .onConflictDoUpdate({
        target: t.id,
        set: {
          ...state,
          // A title in a status event counts unless a later metadata event already changed it.
          title: sql`CASE WHEN excluded.title IS NOT NULL AND (${t.titleChangedAt} IS NULL OR ${t.titleChangedAt} <= excluded.changed_at) THEN excluded.title ELSE ${t.title} END`,
        },
        setWhere: sql`${t.changedAt} <= excluded.changed_at`,
      })
      .returning({ isLive: t.isLive });
    if (rows.length > 0) after.push(() => liveChanged(event.is_live));
  });

  handlers.register('livestream.metadata.updated', 'chat.metadata', async (tx, payload, meta) => {
    const event = livestreamMetadata.parse(payload);
    const t = kickLiveState;
    const values = {
      title: event.metadata.title ?? null,
      category: event.metadata.category?.name ?? null,
      titleChangedAt: meta.sentAt,
    };
    await tx
      .insert(t)
      .values({ id: 1, isLive: false, changedAt: new Date(0), receivedAt: meta.receivedAt, ...values })
      .onConflictDoUpdate({
        target: t.id,
        set: values,
        setWhere: sql`${t.titleChangedAt} IS NULL OR ${t.titleChangedAt} <= excluded.title_changed_at`,
      });
  });
}
