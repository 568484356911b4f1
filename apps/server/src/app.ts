/**
 * Builds the application: external plugins, then cross-cutting app plugins, then the feature
 * modules. It does not listen; main.ts does, and tests use `app.inject()` or listen on port 0.
 */
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { constants as zlibConstants } from 'node:zlib';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { asyncLogDestination } from './lib/log-destination';
import { createLoopbackFetch } from './lib/loopback-fetch';
import { openRedis, readyWithin, type RedisStatus } from './lib/redis';
import { listenForEvictions } from './lib/session-evict-notify';
import { COMPRESS_MIN_BYTES } from './lib/read-cache';
import { ReadFastPath } from './lib/read-fast-path';
import { systemClock, type Clock } from './lib/clock';
import { trustFunction } from './lib/trust-proxy';
import { accessPlugin } from './plugins/access';
import { cachedReadsPlugin } from './plugins/cached-reads';
import { controlPlugin } from './plugins/control';
import { csrfPlugin } from './plugins/csrf';
import { rateLimitPlugin } from './plugins/rate-limit';
import { nextRequestId, requestLogPlugin } from './plugins/request-log';
import { endpointsPlugin } from './plugins/endpoints';
import { errorsPlugin, validatorCompiler } from './plugins/errors';
import { metricsPlugin } from './plugins/metrics';
import { chatOutModule } from './modules/chat-out/module';
import { realtimePlugin, type SocketLimits } from './plugins/realtime';
import { securityHeadersPlugin } from './plugins/security-headers';
import { sessionPlugin } from './plugins/session';
import { localePlugin } from './plugins/locale';
import { defaultWebDist, staticWebPlugin } from './plugins/static-web';
import { devIdentityProvider } from './integrations/steam/dev-provider';
import { integrationStatusPlugin } from './integrations/status';
import { discordSimulator, discordSimulatorWanted } from './integrations/discord/simulator/plugin';
import { accountRoutes } from './modules/accounts/routes';
import { discordLinkRoutes } from './modules/accounts/discord-link';
import { activityRoutes } from './modules/activity/routes';
import { challengeRoutes } from './modules/challenges/routes';
import { dailyRewardRoutes } from './modules/daily-rewards/routes';
import { discordBroadcastsModule } from './modules/discord-broadcasts/routes';
import { discordRolesModule } from './modules/discord-roles/routes';
import { backupSchedulePlugin } from './modules/backups/service';
import { chatModule } from './modules/chat/module';
import { credentialsPlugin } from './modules/integration-settings/credentials';
import { integrationSettingsRoutes } from './modules/integration-settings/routes';
import { kickBotPlugin } from './modules/integrations/kick-bot-plugin';
import { integrationsRoutes } from './modules/integrations/routes';
import { chatPointsPlugin } from './modules/chat-points/plugin';
import { fulfilmentRoutes } from './modules/fulfilment/routes';
import { staffPrizeRoutes } from './modules/staff-prizes/routes';
import { supportRewardsPlugin } from './modules/support-rewards/plugin';
import { channelPointsPlugin } from './modules/channel-points/plugin';
import { partnerLinkRoutes } from './modules/partner-links/routes';
import { adminProductRoutes } from './modules/store/admin-routes';
import { imageRoutes } from './modules/images/routes';
import { storeRoutes } from './modules/store/routes';
import { notificationRoutes } from './modules/notifications/routes';
import { kickBansPlugin } from './modules/kick-bans/plugin';
import { chatModerationPlugin } from './modules/chat-moderation/plugin';
import { adminUserRoutes } from './modules/users/admin-routes';
import { auditRoutes } from './modules/audit/routes';
import { authRoutes } from './modules/auth/routes';
import { fairEarningPlugin } from './modules/fair-earning/plugin';
import { healthRoutes } from './modules/health/routes';
import { runShellCommand } from './modules/shell/commands';
import { leaderboardsModule } from './modules/leaderboards/routes';
import { communityGoalsModule } from './modules/community-goals/routes';
import { streamStreaksModule } from './modules/stream-streaks/routes';
import { siteRoutes } from './modules/site/routes';
import { languagesModule } from './modules/languages/routes';
import { splitOrStealRoutes } from './modules/split-or-steal/routes';
import { dealOrNoDealRoutes } from './modules/deal-or-no-deal/routes';
import { liveRoutes } from './modules/live/routes';
import { earnRoutes } from './modules/earn/routes';
import { milestonesModule } from './modules/milestones/routes';
import { predictionsModule } from './modules/predictions/routes';
import { giveawayModule } from './modules/giveaway/routes';
import { huntModule } from './modules/hunt/routes';
import { rafflesModule } from './modules/raffles/routes';
import { battlesModule } from './modules/battles/routes';
import { slotCallsModule } from './modules/slot-calls/routes';
import { chatCommandsModule } from './modules/chat-commands/routes';
import { gamesPlugin } from './games/plugin';
import { userRoutes } from './modules/users/routes';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    clock: Clock;
    /** Outbound HTTP for integrations; our own origin is served in-process (loopback-fetch.ts). */
    http: typeof fetch;
    /** The Redis connection when REDIS_URL is set (hub adapter, shared rate limits), else null. */
    redis: Redis | null;
    /** Whether Redis is usable now (null without REDIS_URL): lib/redis.ts. */
    redisStatus: RedisStatus | null;
    /** Set by main.ts on SIGTERM: /healthz answers 503 so load balancers stop sending traffic. */
    lifecycle: { draining: boolean };
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  clock?: Clock;
  /** The network side of outbound HTTP (tests replace it to simulate outages). */
  networkFetch?: typeof fetch;
  /** Built web app to serve; `undefined` finds apps/web/dist, `null` serves none. */
  webDist?: string | null;
  /** A pino logger to use instead of the configured one (tests capture log lines with it). */
  loggerInstance?: FastifyBaseLogger;
  /** Per-socket hub call limits (tests tighten them). */
  socketLimits?: SocketLimits;
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  if (config.env === 'test') return false;
  const pretty = !config.isProduction && process.stdout.isTTY;
  return {
    level: config.logLevel,
    redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
      : { stream: asyncLogDestination() }),
  };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  // Cached public reads are answered in front of the router (lib/read-fast-path.ts).
  const fastPath = new ReadFastPath();
  const app = Fastify({
    serverFactory: fastPath.serverFactory,
    genReqId: nextRequestId,
    ...(deps.loggerInstance ? { loggerInstance: deps.loggerInstance } : { logger: loggerOptions(config) }),
    trustProxy: trustFunction(config.trustProxy) ?? false,
    bodyLimit: 256 * 1024,
    // A plugin may wait on the database while it starts (settings, credentials). Fastify's 10 s
    // limit failed a start on a starved CI machine whose PostgreSQL answered slowly; a hang still
    // ends the start, only later (docs/conventions.md#timeouts).
    pluginTimeout: 120_000,
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('clock', deps.clock ?? systemClock);
  app.decorate('http', createLoopbackFetch(app, config.publicOrigin, deps.networkFetch));
  const opened = config.redisUrl ? openRedis(config.redisUrl, app.log) : null;
  const redis = opened?.client ?? null;
  app.decorate('redis', redis);
  app.decorate('redisStatus', opened?.status ?? null);
  app.decorate('lifecycle', { draining: false });
  if (redis) {
    // A normal start reports healthy at once; a Redis that is away does not hold the start up.
    await readyWithin(redis, 1000);
    app.addHook('onClose', async () => {
      opened?.status.close();
      await redis.quit().catch(() => redis.disconnect());
    });
  }

  await app.register(requestLogPlugin);
  await app.register(endpointsPlugin);
  // Large answers go out compressed (cached reads carry their own compressed bytes; static assets
  // are compressed at build time). Quick settings: this runs per request.
  await app.register(fastifyCompress, {
    threshold: COMPRESS_MIN_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(csrfPlugin, { publicOrigin: config.publicOrigin });
  await app.register(sessionPlugin);
  await app.register(localePlugin);
  await app.register(accessPlugin);
  await app.register(cachedReadsPlugin, { fastPath });
  await app.register(rateLimitPlugin);
  await app.register(realtimePlugin, { redis, ...(deps.socketLimits ? { limits: deps.socketLimits } : {}) });
  // Role changes made by the CLI on PostgreSQL reach every process (with or without Redis).
  if (database.kind === 'postgres') await listenForEvictions(app, database.raw as pg.Pool);
  await app.register(gamesPlugin);
  await app.register(metricsPlugin);
  await app.register(integrationStatusPlugin);

  // The credentials the integrations read (environment, then Admin → Settings → Integrations).
  await app.register(credentialsPlugin);

  // The chat pipeline before the features: they register their chat handlers into it.
  await app.register(chatOutModule);
  await app.register(chatModule);
  await app.register(kickBansPlugin);
  // Registered first among the chat handlers' owners; its handler's order puts it first anyway.
  await app.register(chatModerationPlugin);

  await app.register(healthRoutes);
  await app.register(siteRoutes);
  await app.register(languagesModule);
  await app.register(fairEarningPlugin);
  await app.register(authRoutes);
  await app.register(userRoutes);
  await app.register(auditRoutes);
  await app.register(leaderboardsModule);
  await app.register(communityGoalsModule);
  await app.register(splitOrStealRoutes);
  await app.register(dealOrNoDealRoutes);
  await app.register(predictionsModule);
  await app.register(giveawayModule);
  await app.register(huntModule);
  await app.register(rafflesModule);
  // Battles call slot calls (app.slotCalls): registered after them, a declared dependency.
  await app.register(slotCallsModule);
  await app.register(battlesModule);
  // Custom commands and timers: a chat handler before the built-in commands (docs/features/custom-commands.md).
  await app.register(chatCommandsModule);
  await app.register(liveRoutes);
  await app.register(challengeRoutes);
  await app.register(dailyRewardRoutes);
  if (config.steam.signin === 'dev') await app.register(devIdentityProvider);
  await app.register(accountRoutes);
  await app.register(discordLinkRoutes);
  if (discordSimulatorWanted(config)) await app.register(discordSimulator);
  await app.register(discordBroadcastsModule);
  await app.register(discordRolesModule);
  await app.register(storeRoutes);
  await app.register(adminProductRoutes);
  await app.register(notificationRoutes);
  await app.register(imageRoutes);
  await app.register(fulfilmentRoutes);
  await app.register(staffPrizeRoutes);
  await app.register(partnerLinkRoutes);
  await app.register(activityRoutes);
  await app.register(adminUserRoutes);
  await app.register(chatPointsPlugin);
  await app.register(streamStreaksModule);
  await app.register(kickBotPlugin);
  await app.register(integrationsRoutes);
  await app.register(supportRewardsPlugin);
  await app.register(channelPointsPlugin);
  await app.register(earnRoutes);
  await app.register(milestonesModule);
  await app.register(integrationSettingsRoutes);
  await app.register(backupSchedulePlugin);

  await app.register(controlPlugin, {
    dataDir: config.database.kind === 'pglite' ? config.database.dataDir : null,
    run: runShellCommand,
  });
  await app.register(staticWebPlugin, {
    webDist: deps.webDist === undefined ? defaultWebDist() : deps.webDist,
    sourceMaps: !config.isProduction,
  });
  return app;
}
