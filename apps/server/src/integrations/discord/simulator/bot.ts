/**
 * The simulator's bot endpoints, as Discord answers them (`Authorization: Bot <token>`):
 * `POST /api/v10/users/@me/channels` opens (or returns) the DM channel with `recipient_id`;
 * `POST /api/v10/channels/{id}/messages` posts to it — 403 code 50007 when the user has DMs
 * closed or shares no server with the bot, 400 for empty or over-long content, and, when asked, a
 * 429 now and then. As Discord does, every post reports its bucket in `X-RateLimit-*` headers, and
 * a 429's `Retry-After` header is whole seconds (the body's `retry_after` has the decimals).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { DiscordSimulatorContext } from './context';
import { guildChannelPost } from './guild';

const SNOWFLAKE = /^\d{15,25}$/;
const MAX_CONTENT = 2000;
/** A forced 429's wait: short, so tests stay quick; the header rounds it up to whole seconds. */
const RETRY_AFTER_S = 0.05;
const BUCKET_HASH = 'a06de9a3c1e0b2b4c6d8e0f2a4b6c8d0';

const channelBody = z.object({ recipient_id: z.string().regex(SNOWFLAKE) });
const messageBody = z.object({
  content: z.string().optional(),
  allowed_mentions: z.object({ parse: z.array(z.string()).optional() }).optional(),
});

export const BOT_USER = { id: '1100000000000000001', username: 'kickback-bot', global_name: 'Kickback', bot: true };

function discordError(reply: FastifyReply, status: number, code: number, message: string, errors?: unknown) {
  return reply.status(status).send({ message, code, ...(errors ? { errors } : {}) });
}

export async function simulatorBotRoutes(app: FastifyInstance, ctx: DiscordSimulatorContext): Promise<void> {
  const { bot } = ctx;

  /** Discord answers 401 `{ code: 0 }` to a missing or wrong bot token. */
  const authorised = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const token = /^Bot (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (ctx.botToken && token === ctx.botToken) return true;
    void discordError(reply, 401, 0, '401: Unauthorized');
    return false;
  };

  app.post('/api/v10/users/@me/channels', async (request, reply) => {
    if (!authorised(request, reply)) return reply;
    const body = channelBody.safeParse(request.body);
    if (!body.success) {
      return discordError(reply, 400, 50035, 'Invalid Form Body', {
        recipient_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value is not snowflake.' }] },
      });
    }
    const recipient = body.data.recipient_id;
    const known = ctx.directory.byDiscordId(recipient);
    return {
      id: bot.openChannel(recipient),
      type: 1,
      last_message_id: null,
      flags: 0,
      recipients: [
        {
          id: recipient,
          username: known?.username ?? `user${recipient.slice(-4)}`,
          global_name: known?.globalName ?? null,
          discriminator: '0',
          avatar: null,
        },
      ],
    };
  });

  app.post<{ Params: { channelId: string } }>('/api/v10/channels/:channelId/messages', async (request, reply) => {
    if (!authorised(request, reply)) return reply;
    if (ctx.guild.channels.has(request.params.channelId)) {
      const guildBody = messageBody.safeParse(request.body);
      const text = guildBody.success ? (guildBody.data.content ?? '') : '';
      if (text.trim() === '') return discordError(reply, 400, 50006, 'Cannot send an empty message');
      return guildChannelPost(ctx, request.params.channelId, text, reply);
    }
    const recipient = bot.recipientOf(request.params.channelId);
    if (!recipient) return discordError(reply, 404, 10003, 'Unknown Channel');
    const body = messageBody.safeParse(request.body);
    const content = body.success ? (body.data.content ?? '') : '';
    if (content.trim() === '') return discordError(reply, 400, 50006, 'Cannot send an empty message');
    if (content.length > MAX_CONTENT) {
      return discordError(reply, 400, 50035, 'Invalid Form Body', {
        content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] },
      });
    }
    if (bot.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, bot.latencyMs));
    await bot.passHold();
    if (bot.takeRateLimit()) {
      reply.headers({
        'retry-after': String(Math.ceil(RETRY_AFTER_S)),
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset-after': String(RETRY_AFTER_S),
        'x-ratelimit-bucket': BUCKET_HASH,
        'x-ratelimit-scope': 'user',
      });
      return reply
        .status(429)
        .send({ message: 'You are being rate limited.', retry_after: RETRY_AFTER_S, global: false });
    }
    const bucket = bot.spend(request.params.channelId);
    reply.headers({
      'x-ratelimit-limit': String(bucket.limit),
      'x-ratelimit-remaining': String(bucket.remaining),
      'x-ratelimit-reset': bucket.resetAtS.toFixed(3),
      'x-ratelimit-reset-after': bucket.resetAfterS.toFixed(3),
      'x-ratelimit-bucket': BUCKET_HASH,
    });
    // Discord gives a user who shares no server with the bot the same refusal as closed DMs.
    if (bot.dmsClosed(recipient) || !bot.sharesServer(recipient)) {
      bot.refuse(recipient);
      return discordError(reply, 403, 50007, 'Cannot send messages to this user');
    }
    const message = bot.receive(request.params.channelId, recipient, content);
    return {
      id: message.id,
      type: 0,
      channel_id: message.channelId,
      content: message.content,
      timestamp: message.at,
      author: { ...BOT_USER, discriminator: '0', avatar: null },
      mentions: [],
      attachments: [],
      embeds: [],
      pinned: false,
      tts: false,
    };
  });
}
