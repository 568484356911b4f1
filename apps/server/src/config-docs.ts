/**
 * What each setting of the server's configuration schema (envSchema in ./config.ts) means, for
 * people, and the two files made from the schema and these lines: docs/configuration.md and
 * .env.example (`npm run docs:config` writes them; config-docs.test.ts fails when either differs,
 * or when a variable of the schema has no line here). A new variable: add its line, run the script.
 */
import { envSchema } from './config';

export interface SettingDoc {
  /** The variables this line describes (a group shares one line: a partner's key and URL). */
  vars: readonly string[];
  /** The default as people read it (the schema's own default when it is a plain value). */
  default: string;
  meaning: string;
}

export interface SettingSection {
  title: string;
  settings: readonly SettingDoc[];
}

export const settingSections: readonly SettingSection[] = [
  {
    title: 'Server, database and sign-in',
    settings: [
      {
        vars: ['NODE_ENV'],
        default: '`development`',
        meaning: '`production` turns on secure cookies and refuses dev providers.',
      },
      {
        vars: ['PORT', 'HOST'],
        default: '`3000`; `127.0.0.1` while dev sign-in is on, else `0.0.0.0`',
        meaning:
          'Where the server listens. Without `HOST` a site on dev sign-in (the quick start) is reachable from this machine only.',
      },
      {
        vars: ['PUBLIC_URL'],
        default: '`http://localhost:$PORT`',
        meaning: 'The URL browsers use; sign-in return URLs and the allowed `Origin` derive from it.',
      },
      {
        vars: ['DATABASE_URL'],
        default: '—',
        meaning: '`postgres://…` selects a real PostgreSQL; otherwise PGlite.',
      },
      {
        vars: ['DATABASE_POOL_SIZE'],
        default: '`10`',
        meaning: 'Connections per process to PostgreSQL.',
      },
      {
        vars: ['DATA_DIR'],
        default: '`./data`',
        meaning: 'PGlite folder (`:memory:` for a throwaway database).',
      },
      {
        vars: ['REDIS_URL'],
        default: '—',
        meaning: '`redis://…`: hubs broadcast across processes, rate limits shared.',
      },
      {
        vars: ['REDIS_PREFIX'],
        default: '`kickback:`',
        meaning: 'Prefix of every Redis key, stream and channel (several deployments may share one Redis).',
      },
      {
        vars: ['TIMER_SWEEP_MS'],
        default: '`2000`',
        meaning:
          'How often each process looks for game deadlines it did not schedule itself (set by another process, or missed while none ran).',
      },
      {
        vars: ['DRAIN_MS'],
        default: '`0`',
        meaning:
          'On SIGTERM, how long `/healthz` answers 503 `draining` before the process stops accepting (docs/operations.md). Behind a proxy: 5000.',
      },
      {
        vars: ['SESSION_SECRET'],
        default: 'random per start',
        meaning: 'At least 32 characters; required in production.',
      },
      {
        vars: ['ADMIN_STEAM_IDS'],
        default: '—',
        meaning: 'Comma-separated SteamID64s that get the Admin role at sign-in.',
      },
      {
        vars: ['STEAM_SIGNIN'],
        default: '`dev` unless production or `STEAM_API_KEY`',
        meaning: '`steam` or `dev` (the dev identity provider; refused on a public `PUBLIC_URL`, docs/go-live.md).',
      },
      {
        vars: ['ALLOW_DEV_SIGNIN'],
        default: '`0`',
        meaning:
          '`1` lets the dev identity provider and the chat simulator run on a public `PUBLIC_URL` (a private test site).',
      },
      {
        vars: ['STEAM_API_KEY'],
        default: '—',
        meaning: 'Steam Web API key, for names and avatars (`GetPlayerSummaries`).',
      },
      {
        vars: ['STEAM_OPENID_URL', 'STEAM_API_URL'],
        default: "Steam's",
        meaning: "Provider endpoints; production insists on Steam's OpenID URL.",
      },
      {
        vars: ['DEMO_DATA'],
        default: '`1` outside production',
        meaning: 'Seed demo data into an empty database; Admin → Go live removes it.',
      },
      {
        vars: ['SITE_CONFIG'],
        default: '—',
        meaning:
          'JSON file with the starting branding and footer (`siteName`, `streamerName`, `tagline`, `accentColor`, `logoUrl`, `kickChannel`, `contactEmail`, `socials`, `quickLinks`, `termsUrl`, `privacyUrl`) and language (`language`: `{ "default": "en" | "es" | "pt-BR", "followBrowser": true }`); Admin → Settings changes them.',
      },
      {
        vars: ['LOG_LEVEL'],
        default: '`info`',
        meaning: 'pino level; logs are JSON lines (pretty on a terminal in development).',
      },
      {
        vars: ['REQUEST_LOG', 'SLOW_REQUEST_MS'],
        default: '`changes`, `1000`',
        meaning:
          "Which answered requests get a log line at `info`: `changes` logs writes, refusals and errors (status 400 and above) and requests slower than `SLOW_REQUEST_MS`; `all` logs every request. The access log of every read is the front's (Caddy) (docs/operations.md#logs).",
      },
      {
        vars: ['TRUST_PROXY'],
        default: '`0`',
        meaning:
          "Proxies whose `X-Forwarded-For` is believed: a hop count (`1` = one proxy in front, e.g. the shipped Caddy front) or the proxies' addresses/CIDRs (`10.0.0.5,10.0.1.0/24`). Entries a client wrote further left are ignored (docs/security.md).",
      },
      {
        vars: ['RATE_LIMIT_PER_MINUTE'],
        default: '`600`',
        meaning: 'Requests per user (or IP) per minute on the API.',
      },
      {
        vars: ['WEBHOOK_RATE_LIMIT_PER_MINUTE'],
        default: '`1200000`',
        meaning:
          'Deliveries per sending address per minute on `/webhooks/` (`0` = no limit); high because Kick delivers a whole chat from a few addresses, in bursts (the ingest absorbs 20,000/s bursts).',
      },
    ],
  },
  {
    title: 'Keys saved on the site, and backups',
    settings: [
      {
        vars: ['SECRET_KEY'],
        default: 'generated once (PGlite: `DATA_DIR/secret.key`; PostgreSQL: a settings row)',
        meaning:
          'At least 32 characters. Seals the keys saved on Admin → Settings → Integrations (AES-256-GCM); keep it with your backups (docs/features/integration-settings.md).',
      },
      {
        vars: ['BACKUP_DIR', 'BACKUP_INTERVAL_HOURS', 'BACKUP_KEEP'],
        default: '—, `24`, `7`',
        meaning:
          'Scheduled backups into that folder every N hours, the newest N kept; the last one shows on Admin → Go live (docs/backups.md).',
      },
    ],
  },
  {
    title: 'Limits and metrics',
    settings: [
      {
        vars: ['METRICS_ALLOW', 'METRICS_TOKEN'],
        default: '—',
        meaning:
          '`/metrics` (Prometheus: HTTP latency per route, hub calls, sockets, webhook deliveries, game timer lateness, PostgreSQL pool waits, process metrics) answers only these comma-separated addresses, or `Authorization: Bearer <token>` (the token at least 16 characters). Each process answers for itself: scrape every process on its own port; through the shipped Caddy front it answers 404.',
      },
    ],
  },
  {
    title: 'Points and store',
    settings: [
      {
        vars: ['CHAT_POINTS_PER_MINUTE'],
        default: '`5`',
        meaning:
          'Points a linked Kick user earns per minute in which they chat (at most one credit a minute; `0` = off).',
      },
      {
        vars: ['CHAT_POINTS_FLUSH_MS'],
        default: '`5000`',
        meaning: 'How often buffered chat points are written (one transaction per batch; also on shutdown).',
      },
      {
        vars: ['CHAT_TIMERS_TICK_MS'],
        default: '`15000`',
        meaning:
          "How often the chat timers' round runs: the timers that are due take turns, one post per round across every process (docs/features/custom-commands.md).",
      },
      {
        vars: ['CODE_ENCRYPTION_KEY'],
        default:
          'development: derived from `SESSION_SECRET` (a fixed development value without one); production: **required for code products**',
        meaning:
          "At least 32 characters. Seals the store's code pools at rest (AES-256-GCM) and keys the HMAC that refuses duplicate codes. In production without it, uploading codes answers 503 with directions (code products then stay sold out). Changing it makes the stored codes unreadable: keep it with the database backups.",
      },
    ],
  },
  {
    title: 'Leaderboards and partner sites',
    settings: [
      {
        vars: ['CLASH_API_KEY', 'CLASH_API_URL'],
        default: '—, `https://api.clash.gg`',
        meaning: 'Site 1, Clash.gg: affiliate JWT (`detailed-summary/v2`).',
      },
      {
        vars: ['CLASH_ROYALE_API_KEY', 'CLASH_ROYALE_API_URL'],
        default: '—, `https://api.clash.gg`',
        meaning: 'Site 2, "royale": a second Clash.gg affiliate account (same API and gem reward icon as site 1).',
      },
      {
        vars: ['CSGOBIG_REF_CODE', 'CSGOBIG_API_URL'],
        default: '—, `https://csgobig.com`',
        meaning: 'Site 3, CSGOBig: the referral code (`getRefDetails`); polled at most every 15 minutes.',
      },
      {
        vars: ['HOWL_API_KEY', 'HOWL_API_URL'],
        default: '—, `https://howl.gg`',
        meaning: 'Site 4, Howl: affiliate key (`affiliate/lb`).',
      },
      {
        vars: ['RUSTMAGIC_API_KEY', 'RUSTMAGIC_API_URL'],
        default: '—, `https://api.rustmagic.com`',
        meaning: 'Site 5, RustMagic: `x-api-key` (`affiliates-data/users`).',
      },
      {
        vars: ['RUSTMAGIC_BOARD'],
        default: '— (simulator: `kickback`)',
        meaning:
          "The name of your RustMagic board: the answer lists every board of the account (each row's `board`), only this one's rows count (case-insensitive). Unset, an answer naming several boards is refused rather than merged.",
      },
      {
        vars: ['ROOBET_API_KEY', 'ROOBET_AFFILIATE_ID', 'ROOBET_API_URL'],
        default: '—, —, `https://roobetconnect.com`',
        meaning: 'Site 6, Roobet: JWT and affiliate UUID (`affiliate/v2/stats`); both or neither.',
      },
      {
        vars: ['CASES_API_KEY', 'CASES_API_URL'],
        default: '—, `https://api.cases.gg`',
        meaning: 'Site 7, Cases.gg: affiliate JWT (`detailed-summary/v2`).',
      },
      {
        vars: ['PARTNER_SIMULATORS'],
        default: '`1` outside production',
        meaning: '`0` leaves unconfigured boards empty in development too; refused in production.',
      },
      {
        vars: ['PARTNER_HEADERS'],
        default: '—',
        meaning:
          'Extra request headers per partner, JSON: `{"clash":{"cookie":"let-me-in=…"},"cases":{"cookie":"cf_clearance=…","user-agent":"…"}}` (partners: `clash`, `royale`, `csgobig`, `howl`, `rustmagic`, `roobet`, `cases`). Clash.gg clients send a `let-me-in` cookie, and Cases.gg sits behind a bot-protection page that answers 403 to plain clients; such a failure is reported on the admin pages with the status and the first bytes of the page, and the last good standings stay.',
      },
      {
        vars: ['LEADERBOARD_POLLER'],
        default: '`1` (`0` in tests)',
        meaning: 'Run the background poller in this process. Any number of processes may run it.',
      },
      {
        vars: ['LEADERBOARD_POLL_SECONDS'],
        default: '`180`',
        meaning: "How often each board's running period is fetched (10–86400).",
      },
      {
        vars: ['LEADERBOARD_CACHE_SECONDS'],
        default: '`15`',
        meaning: 'How long a built board is served from memory before it is read from the database again.',
      },
    ],
  },
  {
    title: 'Kick and Discord',
    settings: [
      {
        vars: ['KICK_CHAT_INTERVAL_MS'],
        default: '`1500`',
        meaning:
          "The outgoing Kick chat queue's pace: one bot message per this many milliseconds (docs/features/kick-chat-queue.md).",
      },
      {
        vars: ['KICK_CHAT_BURST'],
        default: '`3`',
        meaning: 'Bot messages that may go out back to back after a quiet spell.',
      },
      {
        vars: ['KICK_CHAT_MAX_AGE_S'],
        default: '`60`',
        meaning:
          'Acknowledgements and personal answers waiting longer are dropped from chat (the bet or guess itself stands); announcements never are.',
      },
      {
        vars: ['KICK_SIMULATOR_CHAT_LIMIT', 'KICK_SIMULATOR_CHAT_WINDOW_MS'],
        default: '`10`, `10000`',
        meaning:
          'The Kick simulator answers 429 with `Retry-After` once more chat posts than the limit came within the window (milliseconds).',
      },
      {
        vars: ['KICK_CLIENT_ID', 'KICK_CLIENT_SECRET'],
        default: '—',
        meaning:
          'A Kick app (kick.com/settings/developer). Set, the server keeps its webhook event subscriptions (`chat.message.sent`, `channel.subscription.*`) at start and every 6 h.',
      },
      {
        vars: ['KICK_BROADCASTER_USER_ID'],
        default: '—',
        meaning: "The streamer's Kick user id (required with a Kick app). Events of other channels are ignored.",
      },
      {
        vars: ['KICK_WEBHOOK_PUBLIC_KEY'],
        default: "Kick's key (fetched with the app token) with a Kick app",
        meaning:
          "PEM (`\\n` escapes allowed) that `POST /webhooks/kick` signatures are checked against; the override for Kick's key. Without it the key is fetched from Kick with the app token, retried with backoff; while none can be had every webhook is refused, and the log (error) and Admin → Integrations say so.",
      },
      {
        vars: ['KICK_TOKEN_KEY'],
        default:
          'development: derived from `SESSION_SECRET` (a fixed development value without one); production: **required to connect the bot**',
        meaning:
          "At least 32 characters. The Kick bot's access and refresh tokens are stored encrypted with it (AES-256-GCM, `kick_bot_tokens`). Changing it means connecting the bot again.",
      },
      {
        vars: ['KICK_BOT_SIMULATOR'],
        default: 'on outside production without a Kick app',
        meaning:
          'The local Kick simulator under `/dev/kick` (OAuth 2.1 consent page, token endpoint, chat API) for "Connect Kick bot". Refused in production.',
      },
      {
        vars: ['KICK_BOT_TOKEN'],
        default: '—',
        meaning:
          '**Removed** (Kick user tokens expire after 2 hours): set, the server refuses to start and says to use Admin → Integrations → Connect Kick bot instead.',
      },
      {
        vars: ['KICK_CHATROOM_ID'],
        default: '—',
        meaning:
          "Also read chat from Kick's unofficial chat websocket (Pusher, `chatrooms.<id>.v2`). **Use webhooks (a Kick app) as the source**: Kick is reported to have moved chat off Pusher in October 2026. If the websocket is gone (close codes 4000–4099, or the handshake answers 404/410), the source is reported down in the log and on Admin → Integrations and retried with a long backoff (1 min doubling to 30 min).",
      },
      {
        vars: ['KICK_PUSHER_URL'],
        default: "Kick's Pusher endpoint",
        meaning: 'The websocket URL (its key may rotate).',
      },
      {
        vars: ['KICK_API_URL', 'KICK_OAUTH_URL'],
        default: '`https://api.kick.com`, `https://id.kick.com`',
        meaning: "Kick's API and OAuth hosts.",
      },
      {
        vars: ['KICK_CHAT_SIMULATOR'],
        default: 'on outside production without a Kick app or PEM',
        meaning:
          'The chat simulator: its per-process signing key is trusted, the Chat Simulator page and `npm run chat` post through the webhook. Refused in production.',
      },
      {
        vars: ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET'],
        default: '—',
        meaning:
          'A Discord application for account linking (redirect URI `PUBLIC_URL/auth/discord/callback`, scope `identify`).',
      },
      {
        vars: ['DISCORD_OAUTH'],
        default: '`discord` with a client id, else `dev` (`off` in production)',
        meaning:
          '`dev` runs the local Discord OAuth simulator under `/dev/discord` (refused in production); `off` disables linking.',
      },
      {
        vars: ['DISCORD_BOT_TOKEN'],
        default: '—',
        meaning:
          "The Discord bot's token for direct messages (Send Discord Message). Unset: the local Discord simulator's bot outside production, no DMs in production. The bot needs a server in common with the users.",
      },
      {
        vars: ['DISCORD_API_URL'],
        default: '`https://discord.com/api` (v10)',
        meaning: "Discord's REST base, for OAuth and the bot (`…/api/vN` picks an API version; without one, v10).",
      },
      {
        vars: ['DISCORD_AUTHORIZE_URL'],
        default: "Discord's",
        meaning: "Discord's authorize page.",
      },
    ],
  },
];

/** The schema's variables, in its order. */
export function schemaVariables(): string[] {
  return Object.keys(envSchema.shape);
}

/** Variables of the schema without a line here, and lines naming a variable the schema lacks. */
export function settingGaps(): { undescribed: string[]; unknown: string[] } {
  const described = new Set(settingSections.flatMap((s) => s.settings.flatMap((d) => d.vars)));
  const inSchema = new Set(schemaVariables());
  return {
    undescribed: [...inSchema].filter((v) => !described.has(v)),
    unknown: [...described].filter((v) => !inSchema.has(v)),
  };
}

/** The schema's own default of a variable, when it is a plain value (a number, text or switch). */
function schemaDefault(name: string): string {
  const field = envSchema.shape[name as keyof typeof envSchema.shape];
  const parsed = field.safeParse(undefined);
  if (!parsed.success) return '';
  const value: unknown = parsed.data;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  return '';
}

const GENERATED = 'Generated by `npm run docs:config` from the configuration schema (apps/server/src/config.ts)';

export function configurationMarkdown(): string {
  const { undescribed } = settingGaps();
  const out = [
    '# Configuration',
    '',
    `<!-- ${GENERATED} and the meanings in apps/server/src/config-docs.ts. Do not edit by hand. -->`,
    '',
    'Every setting is an environment variable, and every one is optional for `npm start`. The server',
    'checks them all at start and stops with a message naming the one that is wrong. `.env.example` at',
    'the root lists the same settings. Site texts and branding start from the `SITE_CONFIG` file and are',
    'then changed on the site (Admin → Settings, Admin → 18+ Gate).',
    '',
  ];
  for (const section of settingSections) {
    out.push(`## ${section.title}`, '');
    for (const d of section.settings) {
      const names = d.vars.map((v) => `\`${v}\``).join(', ');
      const byDefault = d.default === '—' ? 'no default' : `default ${d.default}`;
      out.push(`- **${names}** — ${byDefault}. ${d.meaning}`);
    }
    out.push('');
  }
  if (undescribed.length > 0) {
    out.push('## Not described yet', '');
    for (const v of undescribed) out.push(`- **\`${v}\`** — add its meaning to apps/server/src/config-docs.ts.`);
    out.push('');
  }
  return out.join('\n');
}

export function envExample(): string {
  const out = [`# Every setting of the Kickback server, all optional for \`npm start\`.`, `# ${GENERATED}.`, ''];
  const described = new Set<string>();
  for (const section of settingSections) {
    out.push(`# --- ${section.title} ---`, '');
    for (const d of section.settings) {
      out.push(`# ${d.meaning.replaceAll('`', '').replaceAll('**', '')}`);
      if (d.default !== '—') out.push(`# Default: ${d.default.replaceAll('`', '').replaceAll('**', '')}`);
      for (const v of d.vars) {
        described.add(v);
        out.push(`# ${v}=${schemaDefault(v)}`);
      }
      out.push('');
    }
  }
  for (const v of schemaVariables().filter((x) => !described.has(x))) out.push(`# ${v}=${schemaDefault(v)}`, '');
  return out.join('\n');
}
