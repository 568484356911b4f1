/**
 * Admin → Go live (docs/go-live.md): the checklist from a fresh server to a live channel, built from
 * this server's configuration and the Integrations overview. Each item says whether it is ready
 * and, when not, exactly what to set — with the value to paste on the other side.
 */
import type { FastifyInstance } from 'fastify';
import { like } from 'drizzle-orm';
import { leaderboardSites } from '@kickback/common/http/leaderboards';
import type { GoLiveChecklist, GoLiveItem, IntegrationRow } from '@kickback/common/http/integrations';
import type { PartnerSlug } from '../../config';
import { users } from '../../db/schema/users';
import { KICK_WEBHOOK_PATH } from '../../integrations/kick/webhook';
import { DEMO_STEAM_ID_PATTERN } from '../demo/service';
import { integrationsOverview } from './service';
import { lastBackupNow, type LastBackup } from '../backups/service';

/** Where each partner's key is set. */
const partnerSetting: Record<PartnerSlug, string> = {
  clash: 'CLASH_API_KEY',
  royale: 'CLASH_ROYALE_API_KEY',
  csgobig: 'CSGOBIG_REF_CODE',
  howl: 'HOWL_API_KEY',
  rustmagic: 'RUSTMAGIC_API_KEY',
  roobet: 'ROOBET_API_KEY and ROOBET_AFFILIATE_ID',
  cases: 'CASES_API_KEY',
};

const item = (id: string, label: string, state: GoLiveItem['state'], detail: string, copy: string | null = null) => ({
  id,
  label,
  state,
  detail,
  copy,
});

const at = (iso: string | null) => (iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : null);

export async function goLiveChecklist(app: FastifyInstance): Promise<GoLiveChecklist> {
  const { config } = app;
  const overview = await integrationsOverview(app);
  const rowOf = (id: string): IntegrationRow | undefined => overview.rows.find((r) => r.id === id);
  const webhookUrl = `${config.publicUrl}${KICK_WEBHOOK_PATH}`;
  const kick = app.credentials.kick();
  const discord = app.credentials.discord();
  const partners = app.credentials.partners();

  const security: GoLiveItem[] = [
    config.steam.signin === 'steam'
      ? config.steam.apiKey
        ? item('steam', 'Sign-in with Steam', 'ready', 'Viewers sign in with their Steam account.')
        : item(
            'steam',
            'Sign-in with Steam',
            'todo',
            'Viewers can sign in with Steam, but without STEAM_API_KEY their Steam names and avatars are never read (every account is called "Player" and the end of its SteamID64). Set STEAM_API_KEY (steamcommunity.com/dev/apikey), then restart.',
          )
      : item(
          'steam',
          'Sign-in with Steam',
          'todo',
          'Sign-in uses the dev identity provider: anyone can sign in as anyone, admins included. Set STEAM_API_KEY (steamcommunity.com/dev/apikey) and NODE_ENV=production, then restart.',
        ),
    config.isProduction
      ? item('production', 'Production mode', 'ready', 'NODE_ENV=production: secure cookies, no simulators.')
      : item('production', 'Production mode', 'todo', 'Set NODE_ENV=production (secure cookies, no simulators).'),
    config.sessionSecretSet
      ? item('sessionSecret', 'SESSION_SECRET', 'ready', 'Set: every process and every start share it.')
      : item(
          'sessionSecret',
          'SESSION_SECRET',
          'todo',
          'Not set: a random secret is made at every start. Sessions are kept in the database, so nobody is signed out by a restart, but a sign-in under way when the server restarts, or finished on another process, fails, and production will not start without it. Set 32+ random characters (openssl rand -base64 48), the same in every process.',
        ),
    config.publicUrl.startsWith('https://')
      ? item('https', 'HTTPS address', 'ready', `PUBLIC_URL is ${config.publicUrl}.`)
      : item(
          'https',
          'HTTPS address',
          'todo',
          `PUBLIC_URL is ${config.publicUrl}: set the https:// address viewers use (with TLS in front and TRUST_PROXY behind it).`,
        ),
  ];

  const webhooks = rowOf('kick.webhooks');
  const subscriptions = rowOf('kick.subscriptions');
  const kickItems: GoLiveItem[] = [
    kick.app
      ? item(
          'kick.app',
          'Kick app keys',
          'ready',
          `Kick app ${kick.app.clientId.slice(0, 6)}…, channel ${kick.broadcasterUserId ?? '?'}.`,
        )
      : item(
          'kick.app',
          'Kick app keys',
          'todo',
          'Create an app on kick.com → Settings → Developer, then enter its client id and secret and your Kick user id on Admin → Settings → Integrations (or set KICK_CLIENT_ID, KICK_CLIENT_SECRET and KICK_BROADCASTER_USER_ID).',
        ),
    item(
      'kick.webhookUrl',
      'Webhook URL in the Kick app',
      webhooks?.lastSuccessAt && kick.app ? 'ready' : 'todo',
      "Paste this into your Kick app's Webhook URL and turn webhooks on.",
      webhookUrl,
    ),
    subscriptions?.health === 'ok'
      ? item('kick.subscriptions', 'Events subscribed', 'ready', 'Subscribed; checked at start and every 6 hours.')
      : item(
          'kick.subscriptions',
          'Events subscribed',
          'todo',
          kick.app
            ? (subscriptions?.lastFailure ??
                'Not confirmed yet: the server subscribes at start (see Admin → Integrations).')
            : 'Needs the Kick app keys.',
        ),
    webhooks?.lastSuccessAt && kick.app
      ? item('kick.lastEvent', 'Last event from Kick', 'ready', `Received ${at(webhooks.lastSuccessAt)}.`)
      : item(
          'kick.lastEvent',
          'Last event from Kick',
          'todo',
          kick.app
            ? 'Nothing received yet: send a chat message in your channel once the webhook URL is set.'
            : webhooks?.lastSuccessAt
              ? `Only the chat simulator so far (last ${at(webhooks.lastSuccessAt)}).`
              : 'Nothing received yet.',
        ),
    overview.kickBot.connected && overview.kickBot.mode === 'real'
      ? item('kick.bot', 'Chat bot', 'ready', `Connected as ${overview.kickBot.kickUsername ?? '?'}.`)
      : item(
          'kick.bot',
          'Chat bot',
          'todo',
          kick.app
            ? 'Connect it on Admin → Integrations → Connect Kick bot (chat replies are only logged until then).'
            : 'Needs the Kick app keys; then connect it on Admin → Integrations.',
        ),
  ];

  const discordItems: GoLiveItem[] = [
    discord.oauth === 'discord'
      ? item('discord.oauth', 'Discord linking', 'ready', `Application ${discord.clientId}.`)
      : item(
          'discord.oauth',
          'Discord linking',
          'optional',
          'To let viewers link Discord: create an application on discord.com/developers, add this redirect URL under OAuth2, enter its client id and secret on Admin → Settings → Integrations.',
          `${config.publicUrl}/auth/discord/callback`,
        ),
    discord.bot.mode === 'discord'
      ? item(
          'discord.bot',
          'Discord bot',
          'ready',
          'Bot token set: broadcasts go out as direct messages. Send a test DM to check it.',
        )
      : item(
          'discord.bot',
          'Discord bot',
          'optional',
          'For Discord broadcasts (direct messages): enter the bot token on Admin → Settings → Integrations.',
        ),
  ];

  const partnerItems: GoLiveItem[] = leaderboardSites.map((site) => {
    const access = partners[site.id as keyof typeof partners];
    const row = rowOf(`partner.${site.slug}`);
    if (access.mode !== 'partner') {
      return item(
        `partner.${site.slug}`,
        site.name,
        'optional',
        `For a live ${site.name} leaderboard: enter its key on Admin → Settings → Integrations (or set ${partnerSetting[site.slug]}).`,
      );
    }
    if (row?.health === 'failing') {
      return item(
        `partner.${site.slug}`,
        site.name,
        'todo',
        `The last fetch failed: ${row.lastFailure ?? 'unknown error'}.`,
      );
    }
    return item(
      `partner.${site.slug}`,
      site.name,
      'ready',
      row?.lastSuccessAt ? `Key set; last successful fetch ${at(row.lastSuccessAt)}.` : 'Key set; no fetch yet.',
    );
  });

  const [demo] = await app.db
    .select({ id: users.id })
    .from(users)
    .where(like(users.steamId, DEMO_STEAM_ID_PATTERN))
    .limit(1);
  const keys: GoLiveItem[] = [
    config.codeKeySet
      ? item(
          'codeKey',
          'Code encryption key',
          'ready',
          'CODE_ENCRYPTION_KEY is set in the server environment. Keep a copy with your backups: store codes cannot be read without it.',
        )
      : item(
          'codeKey',
          'Code encryption key',
          'todo',
          'Set CODE_ENCRYPTION_KEY (32+ random characters) before selling instant codes, and keep a copy with your backups.',
        ),
    kick.bot.mode === 'off'
      ? item(
          'kickTokenKey',
          'Kick token key',
          'optional',
          'Needed with a Kick app: set KICK_TOKEN_KEY (32+ characters).',
        )
      : kick.bot.tokenKeySource === 'KICK_TOKEN_KEY'
        ? item('kickTokenKey', 'Kick token key', 'ready', 'KICK_TOKEN_KEY is set in the server environment.')
        : item(
            'kickTokenKey',
            'Kick token key',
            'todo',
            'Set KICK_TOKEN_KEY (32+ random characters): it seals the bot token at rest.',
          ),
    secretKeyItem(app),
    backupItem(app.config.backups, await lastBackupNow(app)),
    demo
      ? item(
          'demoData',
          'Demo data',
          'todo',
          'This database holds the demo data (demo accounts, catalogue, boards): remove it here, or start the live site on a fresh database with DEMO_DATA=0, the default in production.',
        )
      : item('demoData', 'Demo data', 'ready', 'No demo accounts on this database.'),
  ];

  const sections = [
    { title: 'Sign-in and security', items: security },
    { title: 'Kick', items: kickItems },
    { title: 'Discord', items: discordItems },
    { title: 'Partner sites', items: partnerItems },
    { title: 'Keys and data', items: keys },
  ];
  return { ready: sections.every((s) => s.items.every((i) => i.state !== 'todo')), sections };
}

function secretKeyItem(app: FastifyInstance): GoLiveItem {
  const { source, where } = app.credentials.secretKey;
  const unreadable = app.credentials.unreadable();
  if (unreadable.length > 0) {
    return item(
      'secretKey',
      'Settings encryption key',
      'todo',
      `${unreadable.length === 1 ? 'A key' : `${unreadable.length} keys`} saved on Admin → Settings → Integrations (${unreadable.join(', ')}) cannot be opened with the key in ${where}: it is not the key they were saved with (a changed or lost SECRET_KEY, or a database restored on another server), so they are not used. Put the old key back and restart, or enter them again.`,
    );
  }
  return source === 'SECRET_KEY'
    ? item(
        'secretKey',
        'Settings encryption key',
        'ready',
        'SECRET_KEY is set in the server environment: keep a copy with your backups.',
      )
    : item(
        'secretKey',
        'Settings encryption key',
        'ready',
        `Generated at the first start and kept in ${where}. The keys saved on Admin → Settings → Integrations open only with it: keep a copy with your backups (or set SECRET_KEY).`,
      );
}

const sizeOf = (bytes: number) =>
  bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

function backupItem(backups: FastifyInstance['config']['backups'], last: LastBackup | null): GoLiveItem {
  if (last?.error) {
    return item('backups', 'Backups', 'todo', `The last scheduled backup (${at(last.at)}) failed: ${last.error}`);
  }
  if (last?.file) {
    return item(
      'backups',
      'Backups',
      'ready',
      `Last backup ${at(last.at)}: ${last.file} (${sizeOf(last.size ?? 0)}).${backups.dir ? ` Every ${backups.intervalHours} h, the newest ${backups.keep} kept.` : ''}`,
    );
  }
  return backups.dir
    ? item(
        'backups',
        'Backups',
        'optional',
        `Scheduled every ${backups.intervalHours} h into ${backups.dir}; the first is written within a minute of the start.`,
      )
    : item(
        'backups',
        'Backups',
        'optional',
        'Set BACKUP_DIR (with BACKUP_INTERVAL_HOURS and BACKUP_KEEP) for scheduled backups, or run npm run backup from cron (docs/backups.md).',
      );
}
