/**
 * Looking into the simulated Discord (dev only): `GET /inbox` is a page with the DMs the bot
 * posted, newest first, and who has DMs closed (with toggles); `GET /bot/messages` is the same as
 * JSON; `POST /bot/dms` opens or closes a user's DMs; `POST /bot/server` puts a user in or out of
 * the bot's servers (out: every DM gets 50007); `POST /bot/rate-limit` makes every Nth post
 * answer 429; `POST /bot/latency` slows every post down; `POST /bot/hold` lets the next n posts
 * through and holds the rest until released; `POST /bot/clear` empties the inbox.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DISCORD_SIMULATOR_PATH } from '../../../config';
import { escapeHtml, page } from '../../../lib/html';
import type { DiscordSimulatorContext } from './context';

const BLURPLE = '#4752C4';
const SHOW = 200;

const dmsForm = z.object({
  discordId: z.string().regex(/^\d{15,25}$/),
  closed: z
    .union([z.boolean(), z.enum(['1', '0', 'true', 'false'])])
    .transform((v) => v === true || v === '1' || v === 'true'),
});

const serverForm = z.object({
  discordId: z.string().regex(/^\d{15,25}$/),
  member: z
    .union([z.boolean(), z.enum(['1', '0', 'true', 'false'])])
    .transform((v) => v === true || v === '1' || v === 'true'),
});

export async function simulatorInboxRoutes(app: FastifyInstance, ctx: DiscordSimulatorContext): Promise<void> {
  const { bot, directory } = ctx;
  const nameOf = (id: string) => directory.byDiscordId(id)?.username ?? null;
  const wantsHtml = (accept: string | undefined) => (accept ?? '').includes('text/html');

  app.get('/bot/messages', async (request) => {
    const recipient = (request.query as Record<string, unknown>).recipient;
    const list = bot.messages(typeof recipient === 'string' ? recipient : undefined);
    return {
      messages: list.map((m) => ({ ...m, recipientUsername: nameOf(m.recipientId) })),
      dmsClosed: bot.closedIds(),
      noSharedServer: bot.strangerIds(),
      rateLimited: bot.rateLimited,
    };
  });

  app.post('/bot/dms', async (request, reply) => {
    const form = dmsForm.safeParse(request.body);
    if (!form.success) return reply.status(400).send({ message: 'discordId (a snowflake) and closed are required.' });
    bot.setDmsClosed(form.data.discordId, form.data.closed);
    if (wantsHtml(request.headers.accept)) return reply.redirect(`${DISCORD_SIMULATOR_PATH}/inbox`, 303);
    return { discordId: form.data.discordId, dmsClosed: form.data.closed };
  });

  app.post('/bot/server', async (request, reply) => {
    const form = serverForm.safeParse(request.body);
    if (!form.success) return reply.status(400).send({ message: 'discordId (a snowflake) and member are required.' });
    bot.setSharesServer(form.data.discordId, form.data.member);
    if (wantsHtml(request.headers.accept)) return reply.redirect(`${DISCORD_SIMULATOR_PATH}/inbox`, 303);
    return { discordId: form.data.discordId, sharesServer: form.data.member };
  });

  app.post('/bot/rate-limit', async (request, reply) => {
    const body = z.object({ every: z.number().int().min(0).max(1000) }).safeParse(request.body);
    if (!body.success) return reply.status(400).send({ message: 'every: a whole number 0–1000 is required.' });
    bot.rateLimitEvery = body.data.every;
    return { every: bot.rateLimitEvery };
  });

  app.post('/bot/latency', async (request, reply) => {
    const body = z.object({ ms: z.number().int().min(0).max(10_000) }).safeParse(request.body);
    if (!body.success) return reply.status(400).send({ message: 'ms: a whole number 0–10000 is required.' });
    bot.latencyMs = body.data.ms;
    return { ms: bot.latencyMs };
  });

  /** `{ after: n }` lets n more message posts through and holds the rest; `{ release: true }` lets them go. */
  app.post('/bot/hold', async (request, reply) => {
    const body = z
      .union([z.object({ after: z.number().int().min(0).max(10_000) }), z.object({ release: z.literal(true) })])
      .safeParse(request.body);
    if (!body.success) {
      return reply.status(400).send({ message: 'Send { after: n } (0–10000) to hold, or { release: true }.' });
    }
    if ('after' in body.data) bot.hold(body.data.after);
    else bot.release();
    return { held: 'after' in body.data };
  });

  app.post('/bot/clear', async (request, reply) => {
    bot.clear();
    if (wantsHtml(request.headers.accept)) return reply.redirect(`${DISCORD_SIMULATOR_PATH}/inbox`, 303);
    return { cleared: true };
  });

  app.get('/inbox', async (_request, reply) => {
    const all = bot.messages();
    const shown = all.slice(-SHOW).reverse();
    const who = (id: string) => {
      const name = nameOf(id);
      return name ? `<strong>@${escapeHtml(name)}</strong> <span class="hint">${id}</span>` : `<strong>${id}</strong>`;
    };
    const rows = shown
      .map(
        (m) => `<li class="msg">
  <div class="row"><span>To ${who(m.recipientId)}</span><time class="hint" datetime="${m.at}">${escapeHtml(m.at.replace('T', ' ').slice(0, 19))} UTC</time></div>
  <p class="content">${escapeHtml(m.content)}</p>
</li>`,
      )
      .join('\n');
    const closed = bot
      .closedIds()
      .map(
        (id) => `<li class="row"><span>${who(id)}</span>
  <form method="post" action="bot/dms"><input type="hidden" name="discordId" value="${id}"><input type="hidden" name="closed" value="0"><button class="ghost" type="submit">Open DMs</button></form></li>`,
      )
      .join('\n');
    const strangers = bot
      .strangerIds()
      .map(
        (id) => `<li class="row"><span>${who(id)}</span>
  <form method="post" action="bot/server"><input type="hidden" name="discordId" value="${id}"><input type="hidden" name="member" value="1"><button class="ghost" type="submit">Join the server</button></form></li>`,
      )
      .join('\n');
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return page(
      'Inbox — Discord (simulated)',
      `<style>
  main { max-width: 760px; }
  ul { list-style: none; padding: 0; margin: 0; }
  .msg { border-top: 1px solid #262a31; padding: 12px 0; }
  .msg:first-child { border-top: 0; }
  .content { white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0 0; }
  .hint { color: #a9aeb7; }
  .primary { color: #fff; width: auto; margin-top: 10px; }
  li.row { padding: 6px 0; }
  .inline { display: flex; gap: 8px; align-items: end; }
  .inline label { margin-top: 0; }
</style>
<h1>Discord inbox <small class="hint">simulated</small></h1>
<p class="lead">Direct messages the site's bot sent through the simulated Discord API (this stands in for Discord while DISCORD_BOT_TOKEN is not set). ${all.length} received${all.length > SHOW ? `, the newest ${SHOW} shown` : ''}.</p>
<div class="card">
  <div class="row"><strong>Messages</strong><form method="post" action="bot/clear"><button class="ghost" type="submit">Clear</button></form></div>
  ${rows ? `<ul>${rows}</ul>` : '<p class="hint">No messages yet. Send one from Admin → Send Discord Message.</p>'}
</div>
<div class="card">
  <strong>Users with DMs closed</strong>
  <p class="hint">Discord answers these with error 50007 “Cannot send messages to this user”.</p>
  ${closed ? `<ul>${closed}</ul>` : '<p class="hint">Nobody.</p>'}
  <form method="post" action="bot/dms" class="inline">
    <div style="flex:1"><label for="discordId">Discord user id</label><input id="discordId" name="discordId" required pattern="\\d{15,25}" inputmode="numeric"></div>
    <input type="hidden" name="closed" value="1">
    <button class="primary" type="submit">Close DMs</button>
  </form>
</div>
<div class="card">
  <strong>Users in none of the bot's servers</strong>
  <p class="hint">Discord refuses a bot's DMs to a user it shares no server with, from the first message, with the same error 50007.</p>
  ${strangers ? `<ul>${strangers}</ul>` : '<p class="hint">Nobody.</p>'}
</div>`,
      BLURPLE,
    );
  });
}
