/**
 * Admin → Integrations → Discord server → Check (docs/features/discord-roles.md#the-check): asks
 * Discord for the server, the bot's own member and the server's roles, and says what is missing —
 * the bot not in the server, no Manage Roles, a chosen role at or above the bot's highest role (the
 * bot can only give roles below its own), a role that is gone, the go-live channel unknown.
 */
import type { DiscordCheckItem, DiscordRoleCheck } from '@kickback/common/http/discord-roles';
import {
  ADMINISTRATOR,
  GuildCallFailed,
  MANAGE_ROLES,
  type DiscordGuildClient,
  type DiscordRole,
} from '../../integrations/discord/guild';
import { type RoleRule, roleRules } from './rules';
import type { RoleSettings } from './settings';

const item = (id: string, label: string, ok: boolean, detail: string): DiscordCheckItem => ({ id, label, ok, detail });
const why = (err: unknown) => (err instanceof GuildCallFailed ? err.detail : String(err));

export async function checkDiscordServer(
  client: DiscordGuildClient | null,
  settings: RoleSettings,
  rules: readonly RoleRule[] = roleRules,
): Promise<DiscordRoleCheck> {
  const items: DiscordCheckItem[] = [];
  const done = (guildName: string | null, roles: DiscordRoleCheck['roles'] = []): DiscordRoleCheck => ({
    ok: items.every((i) => i.ok),
    guildName,
    items,
    roles,
  });
  if (!client) {
    items.push(item('bot', 'Discord bot', false, 'No bot token: enter it on Admin → Settings → Integrations.'));
    return done(null);
  }
  if (!settings.guildId) {
    items.push(
      item(
        'guild',
        'Discord server',
        false,
        'Enter your server id and save (Server Settings → Widget, or right-click the server → Copy Server ID).',
      ),
    );
    return done(null);
  }
  let guildName: string;
  let roles: DiscordRole[];
  let botRoles: string[] | null;
  try {
    guildName = (await client.guild(settings.guildId)).name;
    roles = await client.roles(settings.guildId);
    botRoles = await client.memberRoles(settings.guildId, await client.botUserId());
  } catch (err) {
    items.push(
      item(
        'guild',
        'Discord server',
        false,
        `Discord did not show the server to the bot (${why(err)}): invite the bot to it, and check the id.`,
      ),
    );
    return done(null);
  }
  items.push(item('guild', 'Discord server', true, `Found: ${guildName}.`));
  if (botRoles === null) {
    items.push(item('member', 'Bot in the server', false, 'The bot is not a member of the server: invite it.'));
    return done(guildName);
  }
  items.push(item('member', 'Bot in the server', true, 'The bot is a member.'));
  const byId = new Map(roles.map((r) => [r.id, r]));
  const mine = [settings.guildId, ...botRoles].map((id) => byId.get(id)).filter((r): r is DiscordRole => !!r);
  const perms = mine.reduce((p, r) => p | BigInt(r.permissions), 0n);
  const canManage = (perms & (ADMINISTRATOR | MANAGE_ROLES)) !== 0n;
  const top = Math.max(0, ...mine.map((r) => r.position));
  items.push(
    item(
      'manageRoles',
      'Manage Roles permission',
      canManage,
      canManage
        ? 'The bot may give and take roles.'
        : "The bot's roles lack Manage Roles: Server Settings → Roles → the bot's role → Manage Roles.",
    ),
  );
  for (const rule of rules) {
    const roleId = settings.roleIds[rule.key];
    if (!roleId) continue;
    const role = byId.get(roleId);
    if (!role) {
      items.push(item(`role:${rule.key}`, rule.label, false, `Role ${roleId} is not in the server: pick another.`));
      continue;
    }
    const below = role.position < top && !role.managed;
    items.push(
      item(
        `role:${rule.key}`,
        rule.label,
        below,
        below
          ? `@${role.name} is below the bot's highest role.`
          : role.managed
            ? `@${role.name} belongs to an integration: Discord gives it, not the bot.`
            : `The bot's role must be above the roles it gives: drag the bot's role above @${role.name} (Server Settings → Roles).`,
      ),
    );
  }
  if (settings.goLiveChannelId) {
    try {
      const channel = await client.channel(settings.goLiveChannelId);
      const ours = channel.guildId === settings.guildId;
      items.push(
        item(
          'channel',
          'Go-live channel',
          ours,
          ours ? `#${channel.name ?? channel.id}.` : 'That channel is not in this server.',
        ),
      );
    } catch (err) {
      items.push(item('channel', 'Go-live channel', false, `The bot cannot see that channel (${why(err)}).`));
    }
  }
  const list = roles
    .filter((r) => r.id !== settings.guildId)
    .sort((a, b) => b.position - a.position)
    .map((r) => ({
      id: r.id,
      name: r.name,
      position: r.position,
      givable: canManage && r.position < top && !r.managed,
    }));
  return done(guildName, list);
}
