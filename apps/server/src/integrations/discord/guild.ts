/**
 * Our Discord bot in the streamer's server, through `@discordjs/rest` like the DMs (./bot.ts): read
 * the server, its roles, the bot's own member and a member's roles; give and take a role
 * (`PUT`/`DELETE /guilds/{guild}/members/{user}/roles/{role}`); post to a channel. The client waits
 * out 429s itself (Discord's `retry_after`, per bucket and the global limit); every other refusal is
 * sorted into what the caller must do: a 403 (missing permission, a role above the bot's) is not
 * retried, a 404 says what is unknown, 401 means the token is wrong.
 */
import { DiscordAPIError, REST, type ResponseLike } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import type { DiscordBotConfig } from '../../config';
import { errorReason } from '../../lib/error-reason';

/** Discord's permission bits we look at. */
export const MANAGE_ROLES = 1n << 28n;
export const ADMINISTRATOR = 1n << 3n;

export interface DiscordRole {
  id: string;
  name: string;
  position: number;
  permissions: string;
  managed: boolean;
}

export interface DiscordGuild {
  id: string;
  name: string;
  ownerId: string;
}

export type GuildFailureKind = 'forbidden' | 'not_found' | 'unauthorized' | 'error';

/** A refused or failed call: `kind` says what to do, `detail` is Discord's answer for the page. */
export class GuildCallFailed extends Error {
  constructor(
    readonly kind: GuildFailureKind,
    readonly detail: string,
    readonly code: number | null,
  ) {
    super(detail);
  }
}

function failure(err: unknown): GuildCallFailed {
  if (err instanceof DiscordAPIError) {
    const detail = `${err.status} ${String(err.code)}: ${err.message}`.slice(0, 300);
    const code = typeof err.code === 'number' ? err.code : null;
    if (err.status === 403) return new GuildCallFailed('forbidden', detail, code);
    if (err.status === 404) return new GuildCallFailed('not_found', detail, code);
    if (err.status === 401) return new GuildCallFailed('unauthorized', detail, code);
    return new GuildCallFailed('error', detail, code);
  }
  return new GuildCallFailed('error', errorReason(err), null);
}

export interface DiscordGuildClient {
  botUserId(): Promise<string>;
  guild(guildId: string): Promise<DiscordGuild>;
  roles(guildId: string): Promise<DiscordRole[]>;
  /** The member's role ids, or null when they are not in the server (Discord's 10007). */
  memberRoles(guildId: string, userId: string): Promise<string[] | null>;
  addRole(guildId: string, userId: string, roleId: string): Promise<void>;
  removeRole(guildId: string, userId: string, roleId: string): Promise<void>;
  channel(channelId: string): Promise<{ id: string; name: string | null; guildId: string | null }>;
  post(channelId: string, content: string): Promise<string>;
  close(): void;
}

const UNKNOWN_MEMBER = 10007;

export function createDiscordGuildClient(
  config: Extract<DiscordBotConfig, { mode: 'discord' | 'simulator' }>,
  http: typeof fetch,
): DiscordGuildClient {
  const rest = new REST({
    api: config.api,
    version: config.version,
    makeRequest: (url, init) => http(url, init as RequestInit) as Promise<ResponseLike>,
    retries: 2,
    timeout: 15_000,
  }).setToken(config.token);
  let botId: string | null = null;
  const call = async <T>(run: () => Promise<unknown>): Promise<T> => {
    try {
      return (await run()) as T;
    } catch (err) {
      throw failure(err);
    }
  };
  const reason = { reason: 'Kickback role rules (docs/features/discord-roles.md)' };

  return {
    async botUserId() {
      botId ??= (await call<{ id: string }>(() => rest.get('/users/@me'))).id;
      return botId;
    },
    async guild(guildId) {
      const g = await call<{ id: string; name: string; owner_id: string }>(() => rest.get(Routes.guild(guildId)));
      return { id: g.id, name: g.name, ownerId: g.owner_id };
    },
    async roles(guildId) {
      const roles = await call<DiscordRole[]>(() => rest.get(Routes.guildRoles(guildId)));
      return roles.map((r) => ({
        id: r.id,
        name: r.name,
        position: r.position,
        permissions: r.permissions,
        managed: r.managed,
      }));
    },
    async memberRoles(guildId, userId) {
      try {
        const member = await call<{ roles: string[] }>(() => rest.get(Routes.guildMember(guildId, userId)));
        return member.roles;
      } catch (err) {
        if (err instanceof GuildCallFailed && err.code === UNKNOWN_MEMBER) return null;
        throw err;
      }
    },
    async addRole(guildId, userId, roleId) {
      await call(() => rest.put(Routes.guildMemberRole(guildId, userId, roleId), reason));
    },
    async removeRole(guildId, userId, roleId) {
      await call(() => rest.delete(Routes.guildMemberRole(guildId, userId, roleId), reason));
    },
    async channel(channelId) {
      const c = await call<{ id: string; name?: string; guild_id?: string }>(() => rest.get(Routes.channel(channelId)));
      return { id: c.id, name: c.name ?? null, guildId: c.guild_id ?? null };
    },
    async post(channelId, content) {
      const message = await call<{ id: string }>(() =>
        rest.post(Routes.channelMessages(channelId), { body: { content, allowed_mentions: { parse: [] } } }),
      );
      return message.id;
    },
    close() {
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
    },
  };
}
