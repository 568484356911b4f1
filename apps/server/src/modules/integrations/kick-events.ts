/**
 * Admin → Integrations, Kick events (docs/features/kick-events-and-bans.md): per event type the
 * last delivery and the count of the last 24 hours, so silent loss on Kick's side shows; and the
 * features that are on with the OAuth scopes the bot token lacks.
 */
import type { FastifyInstance } from 'fastify';
import { and, count, gt, inArray, max } from 'drizzle-orm';
import type { IntegrationHealth, KickEventStat, KickFeatureScopes } from '@kickback/common/http/integrations';
import { chatMessages, kickWebhookDeliveries } from '../../db/schema/chat';
import { kickEventLastSeen } from '../../db/schema/kick-bans';
import { eventsToSubscribe, missingScopes } from '../../integrations/kick/features';
import { KICK_EVENT_TYPES } from '../../integrations/kick/events';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `subscription`: the health of the event subscriptions, so a wanted event is not called subscribed while subscribing fails. */
export async function kickEventStats(app: FastifyInstance, subscription: IntegrationHealth): Promise<KickEventStat[]> {
  const since = new Date(app.clock.now().getTime() - DAY_MS);
  // Chat messages are their own delivery records (the chat ingest); other events keep a deliveries row.
  const chatSources = inArray(chatMessages.source, ['kick-webhook', 'simulator']);
  const [counts, last, [chat]] = await Promise.all([
    app.db
      .select({ type: kickWebhookDeliveries.eventType, n: count() })
      .from(kickWebhookDeliveries)
      .where(gt(kickWebhookDeliveries.receivedAt, since))
      .groupBy(kickWebhookDeliveries.eventType),
    app.db.select().from(kickEventLastSeen),
    app.db
      .select({ at: max(chatMessages.receivedAt), n: count() })
      .from(chatMessages)
      .where(and(chatSources, gt(chatMessages.receivedAt, since))),
  ]);
  const [chatLast] = chat?.at
    ? [chat.at]
    : (
        await app.db
          .select({ at: max(chatMessages.receivedAt) })
          .from(chatMessages)
          .where(chatSources)
      ).map((r) => r.at);
  const subscribed = new Set<string>(eventsToSubscribe(app.chat.kickEvents));
  return KICK_EVENT_TYPES.map((type) => {
    if (type === 'chat.message.sent') {
      return {
        type,
        subscribed: true,
        subscription,
        lastDeliveryAt: chatLast?.toISOString() ?? null,
        last24h: chat?.n ?? 0,
      };
    }
    return {
      type,
      subscribed: subscribed.has(type),
      subscription,
      lastDeliveryAt: last.find((r) => r.eventType === type)?.lastReceivedAt.toISOString() ?? null,
      last24h: counts.find((r) => r.type === type)?.n ?? 0,
    };
  });
}

export function kickFeatureScopes(app: FastifyInstance, granted: string | null): KickFeatureScopes[] {
  return missingScopes(app.chat.kickEvents, granted).map((f) => ({
    id: f.id,
    label: f.label,
    scopes: [...f.scopes],
    missing: granted === null ? [] : f.missing,
  }));
}
