/**
 * Environment → typed, validated configuration. Read once at start; a bad value stops the server
 * with a message naming the variable. Everything is optional for `npm start`.
 */
import { createHmac, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { siteConfig, type SiteConfig } from '@kickback/common/http/site';
import { defaultMenu } from '@kickback/common/site-menu';
import { isAmount } from '@kickback/common/money';
import { isSteamId64, STEAM_ID_RULE } from '@kickback/common/steam-id';
import { parseTrustProxy, type TrustProxy } from './lib/trust-proxy';

/** Which answered requests get a log line (plugins/request-log.ts, docs/operations.md#logs). */
export interface RequestLogPolicy {
  /** Every request; otherwise writes, refusals and errors (status 400 and above) and slow ones. */
  all: boolean;
  /** A request that took at least this long is logged whatever it was. */
  slowMs: number;
}

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Unset: loopback (127.0.0.1) while dev sign-in is on, every interface (0.0.0.0) otherwise. */
  HOST: optionalString,
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  /** Connections per process to PostgreSQL (DATABASE_URL). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1, 'must be at least 1').max(200, 'must be at most 200').default(10),
  /** PGlite folder; ':memory:' keeps the database in memory (browser tests, throwaway demos). */
  DATA_DIR: z.string().default('./data'),
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
  ),
  /** Prefix of every Redis key and channel this deployment uses (several sites may share a Redis). */
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{0,64}$/, 'letters, digits and : . _ - only')
    .default('kickback:'),
  /** How often each process looks for game deadlines it did not schedule itself (another process's, or missed while none ran). */
  TIMER_SWEEP_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  SESSION_SECRET: optionalString,
  ADMIN_STEAM_IDS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().refine(isSteamId64, `each id must be ${STEAM_ID_RULE}`))),
  STEAM_SIGNIN: z.enum(['steam', 'dev']).optional(),
  /** Lets the dev identity provider and the chat simulator run on a public PUBLIC_URL (a private test site). */
  ALLOW_DEV_SIGNIN: bool.default(false),
  STEAM_API_KEY: optionalString,
  STEAM_OPENID_URL: z.url().default('https://steamcommunity.com/openid/login'),
  STEAM_API_URL: z.url().default('https://api.steampowered.com'),
  DEMO_DATA: bool.optional(),
  SITE_CONFIG: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Which answered requests get a log line: plugins/request-log.ts.
  REQUEST_LOG: z.enum(['changes', 'all']).default('changes'),
  SLOW_REQUEST_MS: z.coerce.number().int().min(1).max(600_000).default(1000),
  // How many proxy hops (or which proxy addresses) may set the client's address: lib/trust-proxy.ts.
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      try {
        return parseTrustProxy(v);
      } catch {
        ctx.addIssue({
          code: 'custom',
          message:
            'must be 0, a number of proxy hops (1 behind the shipped Caddy), or proxy addresses / CIDR ranges; "true" and "yes" do not say how many proxies are in front',
        });
        return z.NEVER;
      }
    }),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  // Deliveries per minute per sending address on /webhooks/ (0 = no limit). Kick delivers in
  // bursts from a few addresses, so the default is high: it stops a flood, not Kick.
  // /metrics (Prometheus) answers only these addresses, or a request with this bearer token;
  // with neither set it is off.
  METRICS_ALLOW: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
  WEBHOOK_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(1_200_000),
  // Partner affiliate APIs (leaderboards). A site with its key uses the partner; without, the
  // local simulator outside production, nothing in production.
  CLASH_API_KEY: optionalString,
  CLASH_API_URL: z.url().default('https://api.clash.gg'),
  CLASH_ROYALE_API_KEY: optionalString,
  CLASH_ROYALE_API_URL: z.url().default('https://api.clash.gg'),
  CSGOBIG_REF_CODE: optionalString,
  CSGOBIG_API_URL: z.url().default('https://csgobig.com'),
  HOWL_API_KEY: optionalString,
  HOWL_API_URL: z.url().default('https://howl.gg'),
  RUSTMAGIC_API_KEY: optionalString,
  RUSTMAGIC_API_URL: z.url().default('https://api.rustmagic.com'),
  RUSTMAGIC_BOARD: optionalString.pipe(z.string().max(100, 'must be at most 100 characters').optional()),
  ROOBET_API_KEY: optionalString,
  ROOBET_AFFILIATE_ID: optionalString,
  ROOBET_API_URL: z.url().default('https://roobetconnect.com'),
  CASES_API_KEY: optionalString,
  CASES_API_URL: z.url().default('https://api.cases.gg'),
  PARTNER_SIMULATORS: bool.optional(),
  PARTNER_HEADERS: optionalString,
  LEADERBOARD_POLLER: bool.optional(),
  LEADERBOARD_POLL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(180),
  LEADERBOARD_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(15),
  KICK_CLIENT_ID: optionalString,
  KICK_CLIENT_SECRET: optionalString,
  KICK_BROADCASTER_USER_ID: optionalString.pipe(
    z
      .string()
      .regex(/^\d{1,20}$/, 'must be a numeric Kick user id')
      .optional(),
  ),
  /** Replaced by Admin → Integrations → Connect Kick bot; refused with directions when set. */
  KICK_BOT_TOKEN: optionalString,
  KICK_TOKEN_KEY: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  /** Seals the store's code pools (gift cards, game keys) at rest; required in production for code products. */
  CODE_ENCRYPTION_KEY: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  KICK_BOT_SIMULATOR: bool.optional(),
  KICK_WEBHOOK_PUBLIC_KEY: optionalString,
  KICK_CHATROOM_ID: optionalString.pipe(
    z
      .string()
      .regex(/^\d{1,20}$/, 'must be a numeric chatroom id')
      .optional(),
  ),
  KICK_PUSHER_URL: z
    .string()
    .regex(/^wss?:\/\//, 'must be a ws:// or wss:// URL')
    .default('wss://ws-us2.pusher.com/app/32cbd69e4b950bf97679?protocol=7&client=js&version=8.4.0&flash=false'),
  KICK_API_URL: z.url().default('https://api.kick.com'),
  KICK_OAUTH_URL: z.url().default('https://id.kick.com'),
  KICK_CHAT_SIMULATOR: bool.optional(),
  /** The outgoing chat queue's pace: one bot message per this many milliseconds (docs/features/kick-chat-queue.md). */
  KICK_CHAT_INTERVAL_MS: z.coerce.number().int().min(10, 'must be at least 10').max(600_000).default(1500),
  /** Bot messages that may go out back to back after a quiet spell. */
  KICK_CHAT_BURST: z.coerce.number().int().min(1, 'must be at least 1').max(100).default(3),
  /** Acknowledgements waiting longer than this are dropped from chat (the action itself stands). */
  KICK_CHAT_MAX_AGE_S: z.coerce.number().int().min(1, 'must be at least 1').max(86_400).default(60),
  /** The Kick simulator answers 429 once more than this many chat posts came in the window below. */
  KICK_SIMULATOR_CHAT_LIMIT: z.coerce.number().int().min(1).max(100_000).default(10),
  KICK_SIMULATOR_CHAT_WINDOW_MS: z.coerce.number().int().min(10).max(600_000).default(10_000),
  /** Chat-activity points per active minute of a linked Kick chatter (0 turns them off). */
  CHAT_POINTS_PER_MINUTE: z.coerce
    .number({ error: 'must be a number' })
    .min(0, 'must be 0 or more')
    .max(100_000, 'must be at most 100000')
    .refine((v) => isAmount(v), 'must have at most 2 decimals')
    .default(5),
  /** How often buffered chat points are written (one batch per flush). */
  CHAT_POINTS_FLUSH_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  CHAT_TIMERS_TICK_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  DISCORD_OAUTH: z.enum(['discord', 'dev', 'off']).optional(),
  DISCORD_CLIENT_ID: optionalString,
  DISCORD_CLIENT_SECRET: optionalString,
  DISCORD_AUTHORIZE_URL: z.url().default('https://discord.com/oauth2/authorize'),
  DISCORD_API_URL: optionalString.pipe(z.url().optional()),
  DISCORD_BOT_TOKEN: optionalString,
  /** Seals the integration settings stored on the site (Admin → Settings → Integrations). */
  SECRET_KEY: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  /** Scheduled backups (docs/backups.md): the folder, hours between backups, files kept. */
  BACKUP_DIR: optionalString,
  BACKUP_INTERVAL_HOURS: z.coerce
    .number({ error: 'must be a number' })
    .positive('must be more than 0')
    .max(24 * 30, 'must be at most 720')
    .default(24),
  BACKUP_KEEP: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1000, 'must be at most 1000')
    .default(7),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  /** The environment as read at start (integrationsWith lays the site's stored settings under it). */
  source: Readonly<Record<string, string | undefined>>;
  /** The dev identity provider and simulators may run (a private PUBLIC_URL or ALLOW_DEV_SIGNIN). */
  devToolsAllowed: boolean;
  /** ALLOW_DEV_SIGNIN: the dev identity provider answers clients elsewhere too (else loopback ones only). */
  devSignInFromAnywhere: boolean;
  /** SECRET_KEY: seals the integration settings stored on the site; else a generated key (docs/features/integration-settings.md). */
  secretKey: string | undefined;
  isProduction: boolean;
  port: number;
  host: string;
  /** Origin and base URL the browser uses, without trailing slash. */
  publicUrl: string;
  publicOrigin: string;
  database: { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string; poolSize: number };
  redisUrl: string | undefined;
  redisPrefix: string;
  timerSweepMs: number;
  /** On SIGTERM: how long /healthz answers 503 (draining) before the process stops accepting. */
  drainMs: number;
  sessionSecret: string;
  /**
   * SESSION_SECRET was given (otherwise a random one per start: sessions, kept in the database,
   * survive a restart, but a sign-in under way across a restart or between processes fails).
   */
  sessionSecretSet: boolean;
  /**
   * Seals and hashes the store's codes: CODE_ENCRYPTION_KEY, or outside production a key derived from
   * SESSION_SECRET (a fixed development value without one); null in production without it, where
   * uploading codes and buying code products are refused with directions.
   */
  codeKey: string | null;
  /** CODE_ENCRYPTION_KEY was given (not derived for development). */
  codeKeySet: boolean;
  adminSteamIds: readonly string[];
  steam: {
    signin: 'steam' | 'dev';
    /** The OpenID endpoint assertions must name as `op_endpoint`. */
    openIdUrl: string;
    apiUrl: string;
    apiKey: string | undefined;
  };
  demoData: boolean;
  site: SiteConfig;
  logLevel: Env['LOG_LEVEL'];
  /** Which answered requests are logged (plugins/request-log.ts). */
  requestLog: RequestLogPolicy;
  /** Proxies whose X-Forwarded-For entries are believed (false: none). */
  trustProxy: TrustProxy;
  rateLimitPerMinute: number;
  webhookRateLimitPerMinute: number;
  metrics: { allow: string[]; token: string | undefined };
  cookies: { secure: boolean; prefix: string };
  partners: PartnersConfig;
  leaderboards: {
    /** Run the background poller in this process (off in tests, which poll by hand). */
    poller: boolean;
    pollSeconds: number;
    cacheSeconds: number;
  };
  kick: KickConfig;
  discord: DiscordConfig;
  chatPoints: { pointsPerMinute: number; flushMs: number };
  /** How often a listening server runs a chat timers' round (docs/features/custom-commands.md#timers). */
  chatTimersTickMs: number;
  /** Scheduled backups into `dir` (null: off), every `intervalHours`, the newest `keep` files kept. */
  backups: { dir: string | null; intervalHours: number; keep: number };
}

/** How one partner site's stats are reached: its API, the local simulator, or not at all. */
export type PartnerAccess =
  | {
      mode: 'partner' | 'simulator';
      baseUrl: string;
      key: string;
      affiliateId?: string;
      /** Extra request headers (PARTNER_HEADERS): Clash's `let-me-in` cookie, a bot-protection clearance. */
      headers?: Record<string, string>;
      /** RustMagic: the board whose rows are ours (an account's answer lists every board). */
      board?: string;
    }
  | { mode: 'none' };

export const PARTNER_SLUGS = ['clash', 'royale', 'csgobig', 'howl', 'rustmagic', 'roobet', 'cases'] as const;
export type PartnerSlug = (typeof PARTNER_SLUGS)[number];
/** The board the RustMagic simulator lists our players under when RUSTMAGIC_BOARD is not set. */
export const SIMULATED_RUSTMAGIC_BOARD = 'kickback';

const headerName = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const partnerHeaders = z.partialRecord(
  z.enum(PARTNER_SLUGS),
  z.record(
    z.string().regex(headerName, 'header names are HTTP tokens'),
    z
      .string()
      .max(4000)
      .regex(/^[^\r\n]*$/, 'header values are one line'),
  ),
);

/** `PARTNER_HEADERS`: JSON `{"clash": {"cookie": "let-me-in=…"}, "cases": {…}}`, extra headers per partner. */
function readPartnerHeaders(text: string | undefined): Partial<Record<PartnerSlug, Record<string, string>>> {
  if (text === undefined) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(
      'Invalid configuration: PARTNER_HEADERS: must be JSON like {"clash":{"cookie":"let-me-in=…"}}',
    );
  }
  const parsed = partnerHeaders.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const why =
      issue?.code === 'unrecognized_keys'
        ? `unknown partner ${issue.keys.join(', ')}`
        : issue?.code === 'invalid_key'
          ? `${issue.path.join('.')}: header names are HTTP tokens`
          : `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`;
    throw new ConfigError(`Invalid configuration: PARTNER_HEADERS: ${why} (partners are ${PARTNER_SLUGS.join(', ')})`);
  }
  return parsed.data;
}

/** Keyed by leaderboard site id (docs/product.md#leaderboard-screen): 1 Clash.gg … 7 Cases.gg. */
export type PartnersConfig = Record<1 | 2 | 3 | 4 | 5 | 6 | 7, PartnerAccess>;

export const SIMULATOR_KEY = 'dev-simulator-key';

export interface KickConfig {
  /** The Kick app (client credentials): set, the server keeps its event subscriptions. */
  app: { clientId: string; clientSecret: string } | null;
  /** The streamer's Kick user id: events of other channels are ignored. */
  broadcasterUserId: string | undefined;
  /** The chat bot's user token, connected by an admin (OAuth 2.1 + PKCE); replies are logged without one. */
  bot: KickBotConfig;
  /** PEM given in KICK_WEBHOOK_PUBLIC_KEY; otherwise Kick's (fetched) when an app is configured. */
  webhookPublicKey: string | undefined;
  apiUrl: string;
  oauthUrl: string;
  /** Set: the Pusher chat websocket reader runs for this chatroom. */
  chatroomId: string | undefined;
  pusherUrl: string;
  /** The chat simulator (its signing key is trusted); never in production. */
  simulator: boolean;
  /** The outgoing chat queue: pace, burst and how old an acknowledgement may get before it is dropped. */
  chatQueue: { intervalMs: number; burst: number; maxAgeMs: number };
  /** The Kick simulator's chat limit: more than `count` posts within `windowMs` are answered 429. */
  simulatorChatLimit: { count: number; windowMs: number };
}

/** Where the "Connect Kick bot" flow and chat posting go: Kick, the local Kick simulator, or nowhere. */
export type KickBotConfig =
  | {
      mode: 'kick' | 'simulator';
      clientId: string;
      clientSecret: string;
      oauthUrl: string;
      apiUrl: string;
      redirectUri: string;
      scopes: string;
      /** Seals the bot's tokens at rest; null in production without KICK_TOKEN_KEY (connecting is refused). */
      tokenKey: string | null;
      tokenKeySource: 'KICK_TOKEN_KEY' | 'derived from SESSION_SECRET (development only)' | null;
    }
  | { mode: 'off' };

export const KICK_SIMULATOR_PATH = '/dev/kick';
/**
 * Chat replies (`chat:write`), our event subscriptions (`events:subscribe`), who the token is
 * (`user:read`), and the channel rewards the channel-points bridge creates and settles.
 */
export const KICK_BOT_SCOPES = 'user:read chat:write events:subscribe channel:rewards:read channel:rewards:write';

export interface DiscordConfig {
  /** `discord` (real OAuth), `dev` (the local OAuth simulator) or `off` (linking unavailable). */
  oauth: 'discord' | 'dev' | 'off';
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  /** Base of the REST API, version included (…/api/v10). */
  apiUrl: string;
  bot: DiscordBotConfig;
}

/** The bot that sends direct messages (Discord broadcasts). */
export type DiscordBotConfig =
  | {
      /** `discord`: DISCORD_BOT_TOKEN against DISCORD_API_URL; `simulator`: the local Discord simulator. */
      mode: 'discord' | 'simulator';
      token: string;
      /** REST base without the version (…/api), as @discordjs/rest takes it. */
      api: string;
      version: string;
    }
  | { mode: 'off' };

export const DISCORD_API_VERSION = '10';

/** `…/api` or `…/api/v9` → the base without version and the version (10 unless the URL names one). */
export function splitDiscordApiUrl(url: string): { api: string; version: string } {
  const trimmed = url.replace(/\/+$/, '');
  const m = /^(.*)\/v(\d+)$/.exec(trimmed);
  return m?.[1] && m[2] ? { api: m[1], version: m[2] } : { api: trimmed, version: DISCORD_API_VERSION };
}

/** The mount point of the local Discord simulator (OAuth and REST). */
export const DISCORD_SIMULATOR_PATH = '/dev/discord';

export class ConfigError extends Error {
  /**
   * `field`: the variable to fix (the missing one, not the one just set); `words`: the problem as
   * the site's integration settings page says it (field labels, not variable names).
   */
  constructor(
    message: string,
    readonly detail: { field?: string; words?: string } = {},
  ) {
    super(message);
  }
}

export interface DemoUser {
  readonly steamId: string;
  readonly name: string;
  /** Admin at sign-in with the dev provider. */
  readonly admin: boolean;
  /** Seeded as a Moderator by the demo data (modules/users/demo.ts). */
  readonly moderator?: boolean;
}

/**
 * Steam ids of the dev provider's demo users (all in the demo block of common/steam-id); the first
 * is an admin in dev, the last a Moderator.
 */
export const demoUsers: readonly DemoUser[] = [
  { steamId: '76561199999999001', name: 'StreamerAdmin', admin: true },
  { steamId: '76561199999999011', name: 'LuckyLuke', admin: false },
  { steamId: '76561199999999012', name: 'CrateQueen', admin: false },
  { steamId: '76561199999999013', name: 'HighRoller', admin: false },
  { steamId: '76561199999999014', name: 'ModMia', admin: false, moderator: true },
];

export const defaultSite: Omit<SiteConfig, 'devSignIn'> = {
  siteName: 'Kickback',
  streamerName: 'Vex',
  tagline: 'Live gamba, giveaways and game shows — every night on Kick.',
  accentColor: '#53fc18',
  logoUrl: '/brand/logo.svg',
  kickChannel: 'vex',
  kickChannelUrl: 'https://kick.com/vex',
  contactEmail: 'hello@kickback.example',
  socials: [
    { label: 'Kick', url: 'https://kick.com/vex', icon: 'kick' },
    { label: 'Discord', url: 'https://discord.gg/kickback', icon: 'discord' },
    { label: 'X', url: 'https://x.com/kickback', icon: 'x' },
    { label: 'YouTube', url: 'https://youtube.com/@kickback', icon: 'youtube' },
  ],
  quickLinks: [
    { label: 'Leaderboard', url: '/leaderboard' },
    { label: 'Store', url: '/store' },
    { label: 'Challenges', url: '/Challenges' },
    { label: 'Daily Rewards', url: '/DailyRewards' },
    { label: 'Bonus Hunt', url: '/hunt' },
    { label: 'Roobet VIP', url: '/RoobetVip' },
  ],
  termsUrl: '/terms',
  privacyUrl: '/privacy',
  challengeCategory: 'Roobet',
  menu: defaultMenu.map((entry) => ({ ...entry })),
  language: { default: 'en', followBrowser: true },
  ageGate: {
    enabled: true,
    text: 'This site is about gambling streams and partner casino sites. Confirm that you are 18 or older and that gambling sites are allowed where you live.',
  },
};

function readSiteFile(file: string | undefined): Partial<SiteConfig> {
  if (!file) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`SITE_CONFIG: cannot read ${file}: ${(err as Error).message}`);
  }
  const parsed = siteConfig.omit({ devSignIn: true }).partial().safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(`SITE_CONFIG: ${file}: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const name = first?.path.join('.') ?? 'environment';
    throw new ConfigError(`Invalid configuration: ${name}: ${first?.message ?? 'invalid'}`);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const publicOrigin = new URL(publicUrl).origin;

  if (isProduction && !env.SESSION_SECRET) {
    throw new ConfigError('Invalid configuration: SESSION_SECRET is required in production');
  }
  if (env.SESSION_SECRET !== undefined && env.SESSION_SECRET.length < 32) {
    throw new ConfigError('Invalid configuration: SESSION_SECRET must be at least 32 characters');
  }
  const signin = env.STEAM_SIGNIN ?? (isProduction || env.STEAM_API_KEY ? 'steam' : 'dev');
  // One exception, asked for by name: a production build tried out on this machine only (the
  // public address and the listening address both loopback), e.g. the go-live browser journey.
  // Without HOST, a site on dev sign-in listens on loopback only: the quick start is never reachable
  // from the network (docs/go-live.md#this-machine-only).
  const host = env.HOST ?? (signin === 'dev' ? '127.0.0.1' : '0.0.0.0');
  const localTrial = isLoopbackHost(new URL(publicUrl).hostname) && isLoopbackHost(host);
  if (isProduction && signin === 'dev' && !localTrial) {
    throw new ConfigError(
      'Invalid configuration: STEAM_SIGNIN=dev: the dev identity provider cannot run in production (only on a trial where PUBLIC_URL and HOST are both loopback addresses)',
    );
  }
  // Production cookies are Secure: over plain http no browser would keep a session. Only a trial on
  // this machine (a loopback PUBLIC_URL) may be http.
  if (isProduction && new URL(publicUrl).protocol !== 'https:' && !isLoopbackHost(new URL(publicUrl).hostname)) {
    throw new ConfigError(
      `Invalid configuration: PUBLIC_URL ${publicUrl} is http:// in production: sign-in cookies are Secure, so browsers would drop them. Serve the site over HTTPS (Caddy in front, docs/operations.md) and set PUBLIC_URL=https://…`,
    );
  }
  if (isProduction && env.STEAM_OPENID_URL !== 'https://steamcommunity.com/openid/login') {
    throw new ConfigError(
      'Invalid configuration: STEAM_OPENID_URL must be https://steamcommunity.com/openid/login in production',
    );
  }
  const devToolsAllowed = env.ALLOW_DEV_SIGNIN || isPrivateHost(new URL(publicUrl).hostname);
  if (signin === 'dev' && !devToolsAllowed) {
    throw new ConfigError(
      `Invalid configuration: PUBLIC_URL ${publicUrl} is a public address, and sign-in would use the dev identity provider (anyone could sign in as anyone, admins included). ` +
        (env.STEAM_SIGNIN === 'dev'
          ? 'Remove STEAM_SIGNIN=dev'
          : 'Set STEAM_API_KEY (with NODE_ENV=production) for Steam sign-in') +
        ', or set ALLOW_DEV_SIGNIN=1 if this is a private test site.',
    );
  }
  if (env.KICK_CHAT_SIMULATOR && !devToolsAllowed) {
    throw new ConfigError(
      `Invalid configuration: KICK_CHAT_SIMULATOR: PUBLIC_URL ${publicUrl} is a public address, where anyone could post as any Kick user through the chat simulator. Remove KICK_CHAT_SIMULATOR, or set ALLOW_DEV_SIGNIN=1 if this is a private test site.`,
    );
  }
  const sessionSecret = env.SESSION_SECRET ?? randomSecret();
  const { partners, kick, discord } = integrationParts(env, {
    isProduction,
    publicUrl,
    sessionSecret,
    devToolsAllowed,
  });
  const adminSteamIds = [...env.ADMIN_STEAM_IDS];
  if (signin === 'dev') {
    for (const u of demoUsers) if (u.admin) adminSteamIds.push(u.steamId);
  }

  return {
    env: env.NODE_ENV,
    source: Object.freeze({ ...source }),
    devToolsAllowed,
    devSignInFromAnywhere: env.ALLOW_DEV_SIGNIN,
    secretKey: env.SECRET_KEY,
    isProduction,
    port: env.PORT,
    host,
    publicUrl,
    publicOrigin,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: env.DATA_DIR === ':memory:' ? null : path.resolve(env.DATA_DIR) },
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    timerSweepMs: env.TIMER_SWEEP_MS,
    drainMs: env.DRAIN_MS,
    sessionSecret,
    sessionSecretSet: env.SESSION_SECRET !== undefined,
    codeKeySet: env.CODE_ENCRYPTION_KEY !== undefined,
    codeKey:
      env.CODE_ENCRYPTION_KEY ??
      (isProduction
        ? null
        : createHmac('sha256', env.SESSION_SECRET ?? 'kickback-development-session-secret')
            .update('code-encryption-key')
            .digest('base64url')),
    adminSteamIds,
    steam: {
      signin,
      openIdUrl: signin === 'dev' ? `${publicUrl}/dev/openid/login` : env.STEAM_OPENID_URL,
      apiUrl: signin === 'dev' && !env.STEAM_API_KEY ? `${publicUrl}/dev/steam` : env.STEAM_API_URL,
      apiKey: env.STEAM_API_KEY ?? (signin === 'dev' ? 'dev-simulator-key' : undefined),
    },
    demoData: env.DEMO_DATA ?? !isProduction,
    site: { ...defaultSite, ...readSiteFile(env.SITE_CONFIG), devSignIn: signin === 'dev' },
    logLevel: env.LOG_LEVEL,
    requestLog: { all: env.REQUEST_LOG === 'all', slowMs: env.SLOW_REQUEST_MS },
    trustProxy: env.TRUST_PROXY,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    webhookRateLimitPerMinute: env.WEBHOOK_RATE_LIMIT_PER_MINUTE,
    metrics: { allow: env.METRICS_ALLOW, token: env.METRICS_TOKEN },
    cookies: {
      secure: isProduction,
      prefix: isProduction ? '__Host-' : '',
    },
    partners,
    leaderboards: {
      poller: env.LEADERBOARD_POLLER ?? env.NODE_ENV !== 'test',
      pollSeconds: env.LEADERBOARD_POLL_SECONDS,
      cacheSeconds: env.LEADERBOARD_CACHE_SECONDS,
    },
    kick,
    discord,
    chatPoints: { pointsPerMinute: env.CHAT_POINTS_PER_MINUTE, flushMs: env.CHAT_POINTS_FLUSH_MS },
    chatTimersTickMs: env.CHAT_TIMERS_TICK_MS,
    backups: {
      dir: env.BACKUP_DIR ? path.resolve(env.BACKUP_DIR) : null,
      intervalHours: env.BACKUP_INTERVAL_HOURS,
      keep: env.BACKUP_KEEP,
    },
  };
}

interface IntegrationContext {
  isProduction: boolean;
  publicUrl: string;
  /** The process's session secret (SESSION_SECRET or the random one of this start). */
  sessionSecret: string;
  devToolsAllowed: boolean;
}

/** The parts of the configuration the integrations' credentials decide (Kick, Discord, partners). */
function integrationParts(
  env: Env,
  { isProduction, publicUrl, sessionSecret, devToolsAllowed }: IntegrationContext,
): Pick<Config, 'partners' | 'kick' | 'discord'> {
  const simulators = env.PARTNER_SIMULATORS ?? !isProduction;
  if (isProduction && env.PARTNER_SIMULATORS) {
    throw new ConfigError('Invalid configuration: PARTNER_SIMULATORS: the partner simulators cannot run in production');
  }
  if (Boolean(env.ROOBET_API_KEY) !== Boolean(env.ROOBET_AFFILIATE_ID)) {
    const missing = env.ROOBET_API_KEY ? 'ROOBET_AFFILIATE_ID' : 'ROOBET_API_KEY';
    throw new ConfigError(`Invalid configuration: ${missing} is required with the other Roobet setting`);
  }
  const extraHeaders = readPartnerHeaders(env.PARTNER_HEADERS);
  const partner = (slug: PartnerSlug, key: string | undefined, url: string, affiliateId?: string): PartnerAccess => {
    const headers = extraHeaders[slug];
    const extras = {
      ...(headers ? { headers } : {}),
      ...(slug === 'rustmagic' && env.RUSTMAGIC_BOARD ? { board: env.RUSTMAGIC_BOARD } : {}),
    };
    if (key) return { mode: 'partner', baseUrl: url, key, ...(affiliateId ? { affiliateId } : {}), ...extras };
    if (!simulators) return { mode: 'none' };
    return {
      mode: 'simulator',
      baseUrl: `${publicUrl}/dev/partners/${slug}`,
      key: slug === 'csgobig' ? 'SIMCODE' : SIMULATOR_KEY,
      ...(slug === 'roobet' ? { affiliateId: '00000000-0000-4000-8000-00000000a1f1' } : {}),
      ...(slug === 'rustmagic' ? { board: SIMULATED_RUSTMAGIC_BOARD } : {}),
      ...extras,
    };
  };
  const partners: PartnersConfig = {
    1: partner('clash', env.CLASH_API_KEY, env.CLASH_API_URL),
    2: partner('royale', env.CLASH_ROYALE_API_KEY, env.CLASH_ROYALE_API_URL),
    3: partner('csgobig', env.CSGOBIG_REF_CODE, env.CSGOBIG_API_URL),
    4: partner('howl', env.HOWL_API_KEY, env.HOWL_API_URL),
    5: partner('rustmagic', env.RUSTMAGIC_API_KEY, env.RUSTMAGIC_API_URL),
    6: partner('roobet', env.ROOBET_API_KEY, env.ROOBET_API_URL, env.ROOBET_AFFILIATE_ID),
    7: partner('cases', env.CASES_API_KEY, env.CASES_API_URL),
  };

  const kick = kickConfig(
    env,
    isProduction,
    publicUrl,
    env.SESSION_SECRET ? env.SESSION_SECRET : null,
    devToolsAllowed,
  );
  const discord = discordConfig(env, isProduction, publicUrl, sessionSecret);
  return { partners, kick, discord };
}

/**
 * The integrations' configuration with `stored` (Admin → Settings → Integrations, by variable name)
 * laid under the environment: a variable set in the environment wins. Throws ConfigError naming
 * the variable when the combination is invalid (a client id without its secret).
 */
export function integrationsWith(
  config: Config,
  stored: Readonly<Record<string, string>>,
): Pick<Config, 'partners' | 'kick' | 'discord'> {
  const source: Record<string, string | undefined> = { ...stored };
  for (const [name, value] of Object.entries(config.source)) {
    if (value !== undefined && value.trim() !== '') source[name] = value;
  }
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ConfigError(
      `Invalid configuration: ${first?.path.join('.') ?? 'environment'}: ${first?.message ?? 'invalid'}`,
    );
  }
  const parts = integrationParts(parsed.data, {
    isProduction: config.isProduction,
    publicUrl: config.publicUrl,
    sessionSecret: config.sessionSecret,
    devToolsAllowed: config.devToolsAllowed,
  });
  // The chat simulator's routes are registered at start: whether it runs stays as started.
  return { ...parts, kick: { ...parts.kick, simulator: config.kick.simulator } };
}

function kickConfig(
  env: Env,
  isProduction: boolean,
  publicUrl: string,
  sessionSecret: string | null,
  devToolsAllowed: boolean,
): KickConfig {
  if (env.KICK_BOT_TOKEN) {
    throw new ConfigError(
      'Invalid configuration: KICK_BOT_TOKEN is no longer used (Kick user tokens expire after 2 hours): connect the bot on Admin → Integrations → Connect Kick bot, and set KICK_TOKEN_KEY',
    );
  }
  const appParts = { KICK_CLIENT_ID: env.KICK_CLIENT_ID, KICK_CLIENT_SECRET: env.KICK_CLIENT_SECRET };
  const given = Object.entries(appParts).filter(([, v]) => v !== undefined);
  if (given.length === 1) {
    const missing = Object.keys(appParts).find((k) => appParts[k as keyof typeof appParts] === undefined);
    const words =
      missing === 'KICK_CLIENT_SECRET'
        ? 'Enter the Kick app client secret too: the Kick app needs its client id and its client secret.'
        : 'Enter the Kick app client id too: the Kick app needs its client id and its client secret.';
    throw new ConfigError(`Invalid configuration: ${missing} is required when ${given[0]?.[0]} is set`, {
      ...(missing ? { field: missing } : {}),
      words,
    });
  }
  const app =
    env.KICK_CLIENT_ID && env.KICK_CLIENT_SECRET
      ? { clientId: env.KICK_CLIENT_ID, clientSecret: env.KICK_CLIENT_SECRET }
      : null;
  if (app && !env.KICK_BROADCASTER_USER_ID) {
    throw new ConfigError(
      'Invalid configuration: KICK_BROADCASTER_USER_ID is required with a Kick app (the channel to subscribe to)',
    );
  }
  let webhookPublicKey: string | undefined;
  if (env.KICK_WEBHOOK_PUBLIC_KEY) {
    // Environment files often carry a PEM on one line with literal \n.
    webhookPublicKey = env.KICK_WEBHOOK_PUBLIC_KEY.replace(/\\n/g, '\n');
    try {
      createPublicKey(webhookPublicKey);
    } catch {
      throw new ConfigError('Invalid configuration: KICK_WEBHOOK_PUBLIC_KEY is not a PEM public key');
    }
  }
  // On a public address the chat simulator is off unless ALLOW_DEV_SIGNIN says the site is private.
  const simulator = env.KICK_CHAT_SIMULATOR ?? (!isProduction && devToolsAllowed && !app && !webhookPublicKey);
  if (isProduction && simulator) {
    throw new ConfigError('Invalid configuration: KICK_CHAT_SIMULATOR: the chat simulator cannot run in production');
  }
  return {
    app,
    broadcasterUserId: env.KICK_BROADCASTER_USER_ID,
    bot: kickBotConfig(env, isProduction, publicUrl, app, sessionSecret),
    webhookPublicKey,
    apiUrl: env.KICK_API_URL.replace(/\/+$/, ''),
    oauthUrl: env.KICK_OAUTH_URL.replace(/\/+$/, ''),
    chatroomId: env.KICK_CHATROOM_ID,
    pusherUrl: env.KICK_PUSHER_URL,
    simulator,
    chatQueue: {
      intervalMs: env.KICK_CHAT_INTERVAL_MS,
      burst: env.KICK_CHAT_BURST,
      maxAgeMs: env.KICK_CHAT_MAX_AGE_S * 1000,
    },
    simulatorChatLimit: { count: env.KICK_SIMULATOR_CHAT_LIMIT, windowMs: env.KICK_SIMULATOR_CHAT_WINDOW_MS },
  };
}

function kickBotConfig(
  env: Env,
  isProduction: boolean,
  publicUrl: string,
  app: KickConfig['app'],
  sessionSecret: string | null,
): KickBotConfig {
  const useSimulator = !app && (env.KICK_BOT_SIMULATOR ?? !isProduction);
  if (isProduction && env.KICK_BOT_SIMULATOR) {
    throw new ConfigError('Invalid configuration: KICK_BOT_SIMULATOR: the Kick simulator cannot run in production');
  }
  if (!app && !useSimulator) return { mode: 'off' };
  // Outside production the key may be derived (tokens then open only with the same SESSION_SECRET).
  const derivedFrom = sessionSecret ?? 'kickback-development-session-secret';
  const tokenKey =
    env.KICK_TOKEN_KEY ??
    (isProduction ? null : createHmac('sha256', derivedFrom).update('kick-token-key').digest('base64url'));
  const tokenKeySource = env.KICK_TOKEN_KEY
    ? ('KICK_TOKEN_KEY' as const)
    : tokenKey
      ? ('derived from SESSION_SECRET (development only)' as const)
      : null;
  const common = {
    redirectUri: `${publicUrl}/auth/kick/bot/callback`,
    scopes: KICK_BOT_SCOPES,
    tokenKey,
    tokenKeySource,
  };
  if (app) {
    return {
      mode: 'kick',
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      oauthUrl: env.KICK_OAUTH_URL.replace(/\/+$/, ''),
      apiUrl: env.KICK_API_URL.replace(/\/+$/, ''),
      ...common,
    };
  }
  const simulator = `${publicUrl}${KICK_SIMULATOR_PATH}`;
  return {
    mode: 'simulator',
    clientId: 'kickback-dev',
    clientSecret: createHmac('sha256', derivedFrom).update('kick-simulator-client').digest('base64url'),
    oauthUrl: simulator,
    apiUrl: simulator,
    ...common,
  };
}

function discordConfig(env: Env, isProduction: boolean, publicUrl: string, sessionSecret: string): DiscordConfig {
  const oauth = env.DISCORD_OAUTH ?? (env.DISCORD_CLIENT_ID ? 'discord' : isProduction ? 'off' : 'dev');
  if (isProduction && oauth === 'dev') {
    throw new ConfigError('Invalid configuration: DISCORD_OAUTH=dev: the Discord simulator cannot run in production');
  }
  if (oauth === 'discord' && (!env.DISCORD_CLIENT_ID || !env.DISCORD_CLIENT_SECRET)) {
    throw new ConfigError(
      `Invalid configuration: ${env.DISCORD_CLIENT_ID ? 'DISCORD_CLIENT_SECRET' : 'DISCORD_CLIENT_ID'} is required for Discord linking`,
    );
  }
  const simulator = `${publicUrl}${DISCORD_SIMULATOR_PATH}`;
  const bot = discordBotConfig(env, isProduction, simulator, sessionSecret);
  const versioned = (url: string) => {
    const { api, version } = splitDiscordApiUrl(url);
    return `${api}/v${version}`;
  };
  if (oauth === 'dev') {
    return {
      oauth,
      clientId: 'kickback-dev',
      // The simulator checks it like Discord does; derived so every process agrees on it.
      clientSecret: createHmac('sha256', sessionSecret).update('discord-simulator-client').digest('base64url'),
      authorizeUrl: `${simulator}/oauth2/authorize`,
      apiUrl: versioned(env.DISCORD_API_URL ?? `${simulator}/api/v10`),
      bot,
    };
  }
  return {
    oauth,
    clientId: env.DISCORD_CLIENT_ID ?? '',
    clientSecret: env.DISCORD_CLIENT_SECRET ?? '',
    authorizeUrl: env.DISCORD_AUTHORIZE_URL,
    apiUrl: versioned(env.DISCORD_API_URL ?? 'https://discord.com/api/v10'),
    bot,
  };
}

/**
 * DISCORD_BOT_TOKEN set: the real bot against DISCORD_API_URL (Discord's by default). Unset: the
 * local simulator outside production (with a token derived from the session secret, which it
 * checks like Discord does), nothing in production.
 */
function discordBotConfig(env: Env, isProduction: boolean, simulator: string, sessionSecret: string): DiscordBotConfig {
  if (env.DISCORD_BOT_TOKEN) {
    return {
      mode: 'discord',
      token: env.DISCORD_BOT_TOKEN,
      ...splitDiscordApiUrl(env.DISCORD_API_URL ?? 'https://discord.com/api'),
    };
  }
  if (isProduction) return { mode: 'off' };
  return {
    mode: 'simulator',
    token: createHmac('sha256', sessionSecret).update('discord-simulator-bot').digest('base64url'),
    api: `${simulator}/api`,
    version: DISCORD_API_VERSION,
  };
}

/**
 * Loopback, private and link-local addresses, and names reserved for private use: where the dev identity
 * provider and the chat simulator may run without ALLOW_DEV_SIGNIN (docs/go-live.md).
 */
/** This machine only: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Names that never resolve on the public internet: loopback, testing, mDNS and private-use names.
  if (host === 'localhost' || /\.(localhost|test|local|internal|home\.arpa)$/.test(host)) return true;
  const kind = isIP(host);
  if (kind === 4) {
    const [a = 0, b = 0] = host.split('.').map(Number);
    return (
      a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
    );
  }
  if (kind === 6) {
    if (host === '::1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped?.[1]) return isPrivateHost(mapped[1]);
    const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
    if (mappedHex?.[1] && mappedHex[2]) {
      const hi = parseInt(mappedHex[1], 16);
      const lo = parseInt(mappedHex[2], 16);
      return isPrivateHost(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
    return /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host);
  }
  return false;
}

function randomSecret(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
}
