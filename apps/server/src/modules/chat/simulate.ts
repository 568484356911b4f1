/**
 * Posting a chat message as any Kick user (the admin Chat Simulator page and `npm run chat`): the
 * simulator signs a Kick delivery and sends it to our own webhook, then reads back what the
 * pipeline did with it.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type {
  ChatLiveResult,
  ChatLiveState,
  ChatSimulateBody,
  ChatSimulateEventBody,
  ChatSimulateEventResult,
  ChatSimulateResult,
} from '@kickback/common/http/chat';
import { chatMessages } from '../../db/schema/chat';
import { kickLiveState } from '../../db/schema/kick-bot';
import {
  deliverSimulatedEvent,
  simulatedChatMessage,
  simulatedLivestreamStatus,
} from '../../integrations/kick/simulator';
import { simulatedEvent } from '../../integrations/kick/simulator-events';
import { conflict } from '../../lib/errors';
import { chatLogEntry } from './log';
import { said } from '../../lib/i18n';

/** The channel simulated messages are sent in. */
export const SIMULATED_BROADCASTER_ID = '1000001';

const broadcasterOf = (app: FastifyInstance) => ({
  userId: app.config.kick.broadcasterUserId ?? SIMULATED_BROADCASTER_ID,
  username: app.config.site.kickChannel,
});

/** The stream's live state as recorded from Kick's `livestream.status.updated`. */
export async function liveState(app: FastifyInstance): Promise<ChatLiveState> {
  const [row] = await app.db.select().from(kickLiveState);
  return { isLive: row?.isLive ?? null, changedAt: row?.changedAt.toISOString() ?? null };
}

/** The stream goes live or ends, as Kick would say it: a signed `livestream.status.updated` to our webhook. */
export async function simulateLive(app: FastifyInstance, isLive: boolean): Promise<ChatLiveResult> {
  if (!app.config.kick.simulator) throw conflict(said('common:chatSimulatorOff'));
  const now = app.clock.now();
  const payload = simulatedLivestreamStatus(broadcasterOf(app), isLive, now);
  const delivery = await deliverSimulatedEvent(
    app.http,
    app.config.publicUrl,
    'livestream.status.updated',
    payload,
    now,
  );
  if (delivery.status !== 200) app.log.warn({ status: delivery.status }, 'the webhook refused a simulated live state');
  return { status: delivery.status, live: await liveState(app) };
}

/** Any other Kick event (Chat Simulator → Events), delivered through the webhook like Kick's. */
export async function simulateEvent(
  app: FastifyInstance,
  input: ChatSimulateEventBody,
): Promise<ChatSimulateEventResult> {
  if (!app.config.kick.simulator) throw conflict(said('common:chatSimulatorOff'));
  const now = app.clock.now();
  const { type, payload } = simulatedEvent(input, broadcasterOf(app), now);
  // A redemption of a reward the bot simulator holds (made on Admin → Support Rewards) carries its
  // id, so the bridge credits it (docs/features/channel-points.md#simulator).
  if (input.kind === 'redemption' && app.kickSimulator) {
    const made = [...app.kickSimulator.rewards.values()].find(
      (r) => r.title.toLowerCase() === input.rewardTitle.toLowerCase(),
    );
    const reward = payload.reward as { id: string } | undefined;
    if (made && reward) reward.id = made.id;
  }
  const delivery = await deliverSimulatedEvent(app.http, app.config.publicUrl, type, payload, now);
  if (delivery.status !== 200) app.log.warn({ status: delivery.status, type }, 'the webhook refused a simulated event');
  return { status: delivery.status, type, messageId: delivery.messageId };
}

export async function simulateChat(app: FastifyInstance, input: ChatSimulateBody): Promise<ChatSimulateResult> {
  if (!app.config.kick.simulator) throw conflict(said('common:chatSimulatorOff'));
  const now = app.clock.now();
  const payload = simulatedChatMessage(
    { username: input.username, subscriber: input.subscriber, badges: input.badges ?? [] },
    input.content,
    broadcasterOf(app),
    now,
  );
  const delivery = await deliverSimulatedEvent(app.http, app.config.publicUrl, 'chat.message.sent', payload, now);
  const messageId = String(payload.message_id);
  if (delivery.status === 200) {
    await app.db.update(chatMessages).set({ source: 'simulator' }).where(eq(chatMessages.messageId, messageId));
  } else {
    app.log.warn({ status: delivery.status }, 'the webhook refused a simulated chat message');
  }
  return { status: delivery.status, entry: await chatLogEntry(app.db, messageId) };
}
