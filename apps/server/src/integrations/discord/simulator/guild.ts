/**
 * The simulator's server endpoints, as Discord answers them to a bot (`Authorization: Bot <token>`):
 * `GET /guilds/{guild}`, `GET /guilds/{guild}/roles`, `GET /guilds/{guild}/members/{user}` (404
 * 10007 for a user not in the server), `PUT`/`DELETE /guilds/{guild}/members/{user}/roles/{role}`
 * (204; 403 50013 "Missing Permissions" without Manage Roles or for a role at or above the bot's
 * highest; 404 10011 for an unknown role), `GET /channels/{id}` for the server's channels, and a
 * post to one of them (`guildChannelPost`, called from the message route). Role calls and channel
 * posts answer 429 with `retry_after` when asked to, as Discord does.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { DiscordSimulatorContext } from './context';

/** A forced 429's wait: short, so tests stay quick. */
const RETRY_AFTER_S = 0.05;

function discordError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.status(status).send({ message, code });
}

function rateLimited(reply: FastifyReply) {
  reply.headers({
    'retry-after': String(Math.ceil(RETRY_AFTER_S)),
    'x-ratelimit-limit': '10',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset-after': String(RETRY_AFTER_S),
    'x-ratelimit-bucket': 'b1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6',
    'x-ratelimit-scope': 'user',
  });
  return reply.status(429).send({ message: 'You are being rate limited.', retry_after: RETRY_AFTER_S, global: false });
}

/** `POST /channels/{id}/messages` to one of the server's channels. */
export function guildChannelPost(
  ctx: DiscordSimulatorContext,
  channelId: string,
  content: string,
  reply: FastifyReply,
): FastifyReply | Record<string, unknown> {
  const { guild } = ctx;
  if (guild.takeRateLimit()) return rateLimited(reply);
  if (guild.postsForbidden) {
    guild.forbidden += 1;
    return discordError(reply, 403, 50013, 'Missing Permissions');
  }
  const post = guild.post(channelId, content, new Date(ctx.now()).toISOString());
  return { id: post.id, type: 0, channel_id: channelId, guild_id: guild.id, content, timestamp: post.at };
}

export async function simulatorGuildRoutes(app: FastifyInstance, ctx: DiscordSimulatorContext): Promise<void> {
  const { guild } = ctx;
  const authorised = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const token = /^Bot (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (ctx.botToken && token === ctx.botToken) return true;
    void discordError(reply, 401, 0, '401: Unauthorized');
    return false;
  };
  const knownGuild = (id: string, reply: FastifyReply): boolean => {
    if (id === guild.id) return true;
    void discordError(reply, 404, 10004, 'Unknown Guild');
    return false;
  };

  app.get<{ Params: { guildId: string } }>('/api/v10/guilds/:guildId', async (request, reply) => {
    if (!authorised(request, reply) || !knownGuild(request.params.guildId, reply)) return reply;
    return { id: guild.id, name: guild.name, owner_id: '1100000000000000099', roles: guild.allRoles() };
  });

  app.get<{ Params: { guildId: string } }>('/api/v10/guilds/:guildId/roles', async (request, reply) => {
    if (!authorised(request, reply) || !knownGuild(request.params.guildId, reply)) return reply;
    return guild.allRoles();
  });

  app.get<{ Params: { guildId: string; userId: string } }>(
    '/api/v10/guilds/:guildId/members/:userId',
    async (request, reply) => {
      if (!authorised(request, reply) || !knownGuild(request.params.guildId, reply)) return reply;
      const { userId } = request.params;
      if (userId === ctx.botUserId) {
        return { user: { id: userId, bot: true }, roles: [guild.botRoleId], joined_at: new Date(0).toISOString() };
      }
      if (!guild.isMember(userId)) return discordError(reply, 404, 10007, 'Unknown Member');
      const known = ctx.directory.byDiscordId(userId);
      return {
        user: { id: userId, username: known?.username ?? `user${userId.slice(-4)}`, discriminator: '0', avatar: null },
        roles: guild.rolesOf(userId),
        joined_at: new Date(0).toISOString(),
      };
    },
  );

  const roleCall =
    (method: 'PUT' | 'DELETE') =>
    async (
      request: FastifyRequest<{ Params: { guildId: string; userId: string; roleId: string } }>,
      reply: FastifyReply,
    ) => {
      if (!authorised(request, reply) || !knownGuild(request.params.guildId, reply)) return reply;
      const { userId, roleId } = request.params;
      if (guild.takeRateLimit()) return rateLimited(reply);
      const role = guild.role(roleId);
      if (!role || role.id === guild.id) return discordError(reply, 404, 10011, 'Unknown Role');
      if (!guild.isMember(userId)) return discordError(reply, 404, 10007, 'Unknown Member');
      // Discord: Manage Roles, and only roles below the bot's highest role.
      if (!guild.botCanManageRoles() || role.position >= guild.botTop() || role.managed) {
        guild.forbidden += 1;
        return discordError(reply, 403, 50013, 'Missing Permissions');
      }
      if (method === 'PUT') guild.give(userId, roleId);
      else guild.take(userId, roleId);
      return reply.status(204).send();
    };
  app.put('/api/v10/guilds/:guildId/members/:userId/roles/:roleId', roleCall('PUT'));
  app.delete('/api/v10/guilds/:guildId/members/:userId/roles/:roleId', roleCall('DELETE'));

  app.get<{ Params: { channelId: string } }>('/api/v10/channels/:channelId', async (request, reply) => {
    if (!authorised(request, reply)) return reply;
    const name = guild.channels.get(request.params.channelId);
    if (!name) return discordError(reply, 404, 10003, 'Unknown Channel');
    return { id: request.params.channelId, type: 0, name, guild_id: guild.id };
  });
}

const guildBotForm = z.object({
  manageRoles: z.boolean().optional(),
  position: z.number().int().min(0).max(100).optional(),
  postsForbidden: z.boolean().optional(),
  rateLimitEvery: z.number().int().min(0).max(1000).optional(),
});
const memberRolesForm = z.object({ discordId: z.string().regex(/^\d{15,25}$/), roleIds: z.array(z.string()) });

/**
 * Looking into the simulated server (dev only): `GET /guild` is its state as JSON (roles, members'
 * roles, channel posts, counters); `POST /guild/bot` changes the bot's Manage Roles, its role's
 * position, whether it may post, and every how many calls a 429 comes; `POST /guild/member-roles`
 * sets a member's roles by hand (drift); `POST /guild/clear` starts the server afresh.
 */
export async function simulatorGuildDevRoutes(app: FastifyInstance, ctx: DiscordSimulatorContext): Promise<void> {
  const { guild } = ctx;
  app.get('/guild', async () => guild.snapshot());
  app.post('/guild/bot', async (request, reply) => {
    const form = guildBotForm.safeParse(request.body);
    if (!form.success)
      return reply.status(400).send({ message: 'manageRoles, position, postsForbidden, rateLimitEvery.' });
    const { manageRoles, position, postsForbidden, rateLimitEvery } = form.data;
    if (manageRoles !== undefined) guild.setBotManageRoles(manageRoles);
    if (position !== undefined) guild.setBotPosition(position);
    if (postsForbidden !== undefined) guild.postsForbidden = postsForbidden;
    if (rateLimitEvery !== undefined) guild.rateLimitEvery = rateLimitEvery;
    return guild.snapshot();
  });
  app.post('/guild/member-roles', async (request, reply) => {
    const form = memberRolesForm.safeParse(request.body);
    if (!form.success) return reply.status(400).send({ message: 'discordId (a snowflake) and roleIds are required.' });
    guild.setRolesOf(form.data.discordId, form.data.roleIds);
    return { discordId: form.data.discordId, roles: guild.rolesOf(form.data.discordId) };
  });
  app.post('/guild/clear', async () => {
    guild.clear();
    return guild.snapshot();
  });
}
