/**
 * The simulator's OAuth2 side, as Discord answers it: `GET /oauth2/authorize` (a consent page where
 * a person types a Discord username or picks a demo one), its form post (redirects back with
 * `code` and `state`, or `error=access_denied`), and `POST /api/v10/oauth2/token` (form-encoded
 * only; client by HTTP Basic or in the body; codes single use and bound to the redirect URI).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { escapeHtml, page } from '../../../lib/html';
import type { DiscordSimulatorContext } from './context';
import { DISCORD_USERNAME, demoDiscordUsers } from './directory';

// Discord's darker blurple: white text on it meets WCAG AA.
const BLURPLE = '#4752C4';
const CODE_TTL_MS = 10 * 60 * 1000;
const TOKEN_TTL_S = 604_800;

const authorizeQuery = z.object({
  response_type: z.literal('code'),
  client_id: z.string(),
  scope: z.string(),
  state: z.string().max(500).optional(),
  redirect_uri: z.string(),
  prompt: z.string().optional(),
});
type AuthorizeQuery = z.infer<typeof authorizeQuery>;

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function simulatorOAuthRoutes(app: FastifyInstance, ctx: DiscordSimulatorContext): Promise<void> {
  const readAuthorize = (query: unknown): AuthorizeQuery | string => {
    const parsed = authorizeQuery.safeParse(query);
    if (!parsed.success)
      return 'Invalid OAuth2 request: response_type, client_id, scope and redirect_uri are required.';
    if (parsed.data.client_id !== ctx.clientId) return 'Unknown application (client_id).';
    if (!ctx.redirectUris.includes(parsed.data.redirect_uri)) return 'Invalid OAuth2 redirect_uri.';
    if (!parsed.data.scope.split(/[\s+]/).includes('identify')) return 'Invalid scope.';
    return parsed.data;
  };

  const badRequest = (reply: FastifyReply, text: string) =>
    reply
      .status(400)
      .type('text/html; charset=utf-8')
      .send(
        page('Discord — invalid request', `<h1>Invalid request</h1><p class="lead">${escapeHtml(text)}</p>`, BLURPLE),
      );

  const consentPage = (q: AuthorizeQuery, error?: string) => {
    const action = escapeHtml(`authorize?${new URLSearchParams(q as Record<string, string>).toString()}`);
    const demos = demoDiscordUsers
      .map(
        (name) => `<form method="post" action="${action}">
  <input type="hidden" name="username" value="${name}"><input type="hidden" name="decision" value="authorize">
  <button class="demo" type="submit"><span>${name}<br><small class="hint">${ctx.directory.user(name).id}</small></span></button>
</form>`,
      )
      .join('\n');
    return page(
      'Authorize — Discord (simulated)',
      `<style>.primary { color: #fff; } .hint { color: #a9aeb7; } label.check { display: flex; gap: 8px; align-items: center; } label.check input { width: auto; }</style>
<h1>Discord <small class="hint">simulated</small></h1>
<p class="lead">An external application wants to access your Discord account: <strong>read your username and id</strong> (scope identify). This stands in for Discord while DISCORD_CLIENT_ID is not set.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<div class="card">
<form method="post" action="${action}">
  <label for="username">Discord username</label>
  <input id="username" name="username" required maxlength="32" autocomplete="username" placeholder="e.g. vexfan">
  <div class="hint">2–32 lowercase letters, digits, _ or . — the same name is always the same account.</div>
  <label class="check"><input type="checkbox" name="noServer" value="1"> In none of the bot's servers (its DMs get 50007 from the start)</label>
  <input type="hidden" name="decision" value="authorize">
  <button class="primary" type="submit">Authorize</button>
</form>
</div>
<div class="card"><div class="row"><strong>Or pick one</strong></div>${demos}</div>
<form method="post" action="${action}"><input type="hidden" name="decision" value="cancel"><button class="ghost" type="submit">Cancel</button></form>`,
      BLURPLE,
    );
  };

  app.get('/oauth2/authorize', async (request, reply) => {
    const q = readAuthorize(request.query);
    if (typeof q === 'string') return badRequest(reply, q);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return consentPage(q);
  });

  app.post('/oauth2/authorize', async (request, reply) => {
    const q = readAuthorize(request.query);
    if (typeof q === 'string') return badRequest(reply, q);
    const form = z
      .object({
        decision: z.enum(['authorize', 'cancel']),
        username: z.string().optional(),
        noServer: z.literal('1').optional(),
      })
      .safeParse(request.body);
    if (!form.success) return badRequest(reply, 'Invalid form.');
    const back = new URL(q.redirect_uri);
    if (q.state !== undefined) back.searchParams.set('state', q.state);
    if (form.data.decision === 'cancel') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The resource owner or authorization server denied the request');
      return reply.redirect(back.toString(), 302);
    }
    const username = (form.data.username ?? '').trim().toLowerCase();
    if (!DISCORD_USERNAME.test(username)) {
      reply.status(400).type('text/html; charset=utf-8');
      return consentPage(q, 'A Discord username is 2–32 lowercase letters, digits, _ or . (no "..").');
    }
    const user = ctx.directory.user(username);
    ctx.bot.setSharesServer(user.id, form.data.noServer !== '1');
    const code = ctx.tokens.issue({
      kind: 'code',
      sub: user.id,
      name: user.username,
      redirectUri: q.redirect_uri,
      exp: ctx.now() + CODE_TTL_MS,
      nonce: randomBytes(8).toString('hex'),
    });
    back.searchParams.set('code', code);
    return reply.redirect(back.toString(), 302);
  });

  app.post('/api/v10/oauth2/token', async (request, reply) => {
    const oauthError = (status: number, error: string, description: string) =>
      reply.status(status).send({ error, error_description: description });
    if (!String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return oauthError(400, 'unsupported_grant_type', 'Unsupported grant type');
    }
    const body = (request.body ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    let clientId = str(body.client_id);
    let clientSecret = str(body.client_secret);
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '');
    if (basic?.[1]) {
      const [id = '', secret = ''] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
      clientId = decodeURIComponent(id);
      clientSecret = decodeURIComponent(secret);
    }
    if (clientId !== ctx.clientId || !sameSecret(clientSecret, ctx.clientSecret)) {
      return oauthError(401, 'invalid_client', 'Invalid client');
    }
    if (str(body.grant_type) !== 'authorization_code') {
      return oauthError(400, 'unsupported_grant_type', 'Unsupported grant type');
    }
    const code = str(body.code);
    const claims = ctx.tokens.read(code, 'code', ctx.now());
    if (!claims || claims.redirectUri !== str(body.redirect_uri) || !ctx.tokens.consumeCode(code, ctx.now())) {
      return oauthError(400, 'invalid_grant', 'Invalid "code" in request.');
    }
    const accessToken = ctx.tokens.issue({
      kind: 'token',
      sub: claims.sub,
      name: claims.name,
      exp: ctx.now() + TOKEN_TTL_S * 1000,
      nonce: randomBytes(8).toString('hex'),
    });
    reply.header('cache-control', 'no-store');
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: TOKEN_TTL_S,
      refresh_token: randomBytes(24).toString('base64url'),
      scope: 'identify',
    };
  });
}
