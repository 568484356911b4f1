/**
 * The live chat module: the pipeline as `app.chat`, its sources (the Kick webhook receiver, the
 * optional Kick chat websocket reader, the simulator through the webhook), chat replies, the Kick
 * event subscriptions, retention, and the admin Chat Simulator API.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { KickApi } from '../../integrations/kick/api';
import { KickPusherReader } from '../../integrations/kick/pusher';
import { KickEventHandlers } from '../../integrations/kick/event-handlers';
import type { KickEventType } from '../../integrations/kick/events';
import { eventsToSubscribe } from '../../integrations/kick/features';
import { KICK_SUBSCRIPTIONS_LOCK, keepKickSubscriptions } from '../../integrations/kick/subscriptions';
import { kickWebhookRoutes } from '../../integrations/kick/webhook';
import { createWebhookKeyring } from '../../integrations/kick/webhook-keys';
import { redemptionHandler, redemptionThanks } from '../channel-points/service';
import { supportEventHandlers } from '../support-rewards/service';
import { recordSubscribers } from './activity';
import { registerLiveEvents } from './live-events';
import { pruneChatLog } from './log';
import { ChatWriter } from './ingest';
import { LinkedUsers } from './linked-users';
import { LiveState } from './live';
import { ChatPipeline } from './pipeline';
import { chatAdminRoutes } from './routes';
import { ChatHandlers, type ChatService } from './service';

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 30 * 1000;
const MAX_REPLY = 500;

export const chatModule = plugin({
  name: 'chatModule',
  dependencies: ['chatOutModule', 'credentialsPlugin', 'integrationStatusPlugin'],
})(async (app: FastifyInstance) => {
  const { kick } = app.config;
  const kickApi = new KickApi({
    apiUrl: kick.apiUrl,
    oauthUrl: kick.oauthUrl,
    app: () => app.credentials.kick().app,
    http: app.http,
    clock: app.clock,
  });
  const handlers = new ChatHandlers();
  const kickEvents = new KickEventHandlers();
  registerLiveEvents(kickEvents, (isLive) => live.set(isLive));
  // Support rewards and channel points run in the delivery's transaction; what they tell Kick and
  // chat waits for the commit (docs/features/support-rewards.md, docs/features/channel-points.md).
  for (const [type, handler] of Object.entries(supportEventHandlers)) {
    kickEvents.register(type as KickEventType, 'support-rewards', async (tx, payload, meta, after) => {
      await handler(tx, payload, meta, { timers: app.timers, after });
      after.push(() => app.supportRewards.announcer.schedule());
    });
  }
  kickEvents.register('channel.reward.redemption.updated', 'channel-points', async (tx, payload, meta, after) => {
    const credited = await redemptionHandler(tx, payload, meta);
    after.push(() => app.channelPoints.settleSoon());
    // Once per redemption (null on a redelivery), and only once the credit committed.
    if (credited) after.push(() => app.chatOut.enqueue(redemptionThanks(credited)));
  });
  const nowMs = () => app.clock.now().getTime();
  const writer = new ChatWriter(app.database);
  const linked = new LinkedUsers(app.database, nowMs);
  const live = new LiveState(app.database, nowMs);
  const pipeline = new ChatPipeline(app, writer, linked, () => handlers.inOrder());
  if (app.redis) {
    const stop = await linked.syncThrough(app.redis, `${app.config.redisPrefix}chat-linked-users`, app.log);
    app.addHook('onClose', stop);
  }

  const service: ChatService = {
    kickApi,
    kickEvents,
    register: (handler) => handlers.register(handler),
    process: (message, source) => pipeline.process(message, source),
    linkChanged: (userId) => linked.changed(userId),
    isLive: () => live.isLive(),
    sweep: (limit) => pipeline.sweep(limit),
    get batches() {
      return writer.batches;
    },
    async reply(message, answer, ack) {
      const content = `@${message.kickUsername} ${answer}`.slice(0, MAX_REPLY);
      // Kept with the message by the chat's next batched write (./ingest.ts) — not waited for here,
      // so a handler's reply usually shares that write with its message's completion, which the
      // pipeline waits for before answering: one write less per command.
      writer.reply(message.messageId, content).catch((err: unknown) => {
        app.log.error({ err, replyTo: message.messageId }, 'chat reply could not be kept with its message');
      });
      // Posted by the outgoing chat queue, paced and merged (docs/features/kick-chat-queue.md).
      const queued = ack
        ? app.chatOut.enqueue({ kind: 'ack', ...ack, addressee: message.kickUsername, replyTo: message.messageId })
        : app.chatOut.enqueue({
            kind: 'personal',
            addressee: message.kickUsername,
            text: answer,
            replyTo: message.messageId,
          });
      await queued.catch((err: unknown) => {
        app.log.error({ err, replyTo: message.messageId }, 'chat reply could not be queued');
      });
    },
  };
  app.decorate('chat', service);

  await app.register(kickWebhookRoutes, {
    keyring: createWebhookKeyring(() => app.credentials.kick(), kickApi, app.clock, app.log, {
      status: app.integrationStatus,
    }),
    broadcasterUserId: () => app.credentials.kick().broadcasterUserId,
    sink: {
      chatMessage: async (message) => {
        const result = await service.process(message, 'kick-webhook');
        return result.duplicate ? 'duplicate' : result.inFlight ? 'in-flight' : 'processed';
      },
    },
    handlers: kickEvents,
  });
  await app.register(chatAdminRoutes);

  // Background work runs in a listening server only (not in tests or shell commands).
  const stops: Array<() => Promise<void> | void> = [];
  app.addHook('onListen', async () => {
    if (kick.chatroomId) {
      const reader = new KickPusherReader({
        url: kick.pusherUrl,
        chatroomId: kick.chatroomId,
        log: app.log,
        status: app.integrationStatus,
        now: () => app.clock.now(),
        onMessage: async (message) => {
          await service.process(message, 'kick-websocket');
        },
        onSubscribers: (list) => recordSubscribers(app.db, list, app.clock.now()),
      });
      reader.start();
      stops.push(() => reader.stop());
    }
    // Kept for the channel the credentials name now; started again when they change.
    let keeping: { channel: string; stop: () => void } | null = null;
    const keep = () => {
      const { app: kickApp, broadcasterUserId } = app.credentials.kick();
      const channel = kickApp && broadcasterUserId ? `${kickApp.clientId}:${broadcasterUserId}` : null;
      if (keeping?.channel === channel) return;
      keeping?.stop();
      keeping = null;
      if (channel && broadcasterUserId) {
        keeping = {
          channel,
          stop: keepKickSubscriptions(
            kickApi,
            broadcasterUserId,
            app.log,
            app.integrationStatus,
            () => eventsToSubscribe(kickEvents),
            (fn) => app.database.withAdvisoryLock(KICK_SUBSCRIPTIONS_LOCK, fn),
            // What every process's Admin → Integrations shows (docs/features/kick-events-and-bans.md).
            app.sharedStatus,
          ),
        };
      }
    };
    keep();
    app.credentials.onChange(keep);
    stops.push(() => keeping?.stop());
    const prune = () =>
      pruneChatLog(app.db, app.clock.now()).catch((err: unknown) => app.log.warn({ err }, 'chat log pruning failed'));
    void prune();
    const timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
    timer.unref();
    stops.push(() => clearInterval(timer));
    // Messages whose process died between recording and finishing them (and no redelivery came).
    const sweeper = setInterval(
      () => void pipeline.sweep().catch((err: unknown) => app.log.warn({ err }, 'chat sweep failed')),
      SWEEP_EVERY_MS,
    );
    sweeper.unref();
    stops.push(() => clearInterval(sweeper));
  });
  // preClose: the sources stop before any feature's onClose (chat points flush their buffer there),
  // whatever the order the plugins were registered in.
  app.addHook('preClose', async () => {
    for (const stop of stops.splice(0)) await stop();
  });
  // Whatever is still being written is committed before the database closes.
  app.addHook('onClose', () => writer.drain());
});
