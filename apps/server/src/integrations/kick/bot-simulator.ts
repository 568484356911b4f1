/**
 * The local Kick simulator's account side, mounted under /dev/kick (never in production) while no
 * Kick app is configured, so "Connect Kick bot" and chat replies run end to end:
 * - `GET|POST /oauth/authorize`: Kick's consent page (OAuth 2.1: every parameter required, PKCE S256);
 * - `POST /oauth/token`: `authorization_code` (client secret, redirect URI and code verifier checked),
 *   `refresh_token` (a new pair each time; the old refresh token stops working) and
 *   `client_credentials`; user tokens last 7,200 s as Kick's do;
 * - `GET /public/v1/users` (the token's user) and `POST /public/v1/chat`: `type: "bot"` posts as
 *   the token's owner into its own channel, `type: "user"` into `broadcaster_user_id`'s channel;
 *   401 once the token expired; 429 with `Retry-After` once more posts came within the configured
 *   window than the configured limit (KICK_SIMULATOR_CHAT_LIMIT per KICK_SIMULATOR_CHAT_WINDOW_MS);
 *   and, when a test sets `dailyLimit`, 429 "Daily chat message quota exceeded" (no Retry-After)
 *   once that many posts were accepted in the UTC day — our reading of Kick's undocumented daily
 *   quota error (docs/features/kick-chat-queue.md#kicks-daily-message-quota);
 * - for tests and demos: `POST /tokens/expire` ends every access token now (an expiry mid-reply),
 *   `GET /chat/messages` lists what was posted;
 * - the channel rewards API: `GET|POST /public/v1/channels/rewards`, `PATCH|DELETE …/rewards/{id}`
 *   (at most 15 rewards, as on Kick), `GET …/rewards/redemptions` and `POST …/redemptions/accept`
 *   and `…/reject` (`{ ids }`), scoped `channel:rewards:read` / `channel:rewards:write`.
 * - moderation: `DELETE /public/v1/chat/{message_id}` (scope `moderation:chat_message:manage`; 404
 *   "Message not found" for one already deleted) and `POST /public/v1/moderation/bans` (scope
 *   `moderation:ban`; `duration` in minutes, 1–10080, makes it a timeout; 400 for a bad body — an
 *   unknown field included, since Kick ignoring a misnamed duration would ban for good — or a ban
 *   of the channel's owner); `GET /moderation` lists what was deleted and banned;
 * State is in memory: one process, like the other simulators' test hooks.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { KickBotConfig } from '../../config';
import { escapeHtml, page } from '../../lib/html';
import { simulatedKickUserId } from './simulator';

export const KICK_TOKEN_TTL_S = 7200;
const CODE_TTL_MS = 10 * 60_000;
const KICK_GREEN = '#53fc18';

interface Grant {
  userId: string;
  username: string;
  scope: string;
}

export interface PostedChat {
  messageId: string;
  senderUserId: string;
  senderUsername: string;
  /** Whose channel the message went to. */
  channelUserId: string;
  type: string;
  content: string;
  replyToMessageId: string | null;
  at: string;
}

export interface SimulatedDeletion {
  messageId: string;
  /** The moderator account whose token asked. */
  byUsername: string;
  at: string;
}

export interface SimulatedBan {
  broadcasterUserId: string;
  userId: string;
  /** Null: a permanent ban. */
  durationMinutes: number | null;
  reason: string | null;
  byUsername: string;
  at: string;
}

const banBody = z.strictObject({
  broadcaster_user_id: z.number().int(),
  user_id: z.number().int(),
  duration: z.number().int().min(1).max(10_080).optional(),
  reason: z.string().max(100).optional(),
});

export interface SimulatedReward {
  id: string;
  title: string;
  cost: number;
  description: string;
  is_paused: boolean;
  is_user_input_required: boolean;
  should_redemptions_skip_request_queue: boolean;
}

/** Kick's limit of channel rewards per channel. */
export const SIMULATED_REWARDS_MAX = 15;

const rewardBody = z.object({
  title: z.string().min(1).max(50),
  cost: z.number().int().min(1),
  description: z.string().max(200).optional(),
  is_paused: z.boolean().optional(),
  is_user_input_required: z.boolean().optional(),
  should_redemptions_skip_request_queue: z.boolean().optional(),
});
const redemptionIds = z.object({ ids: z.array(z.string().min(1)).min(1).max(25) });

export class KickSimulatorState {
  readonly codes = new Map<string, Grant & { redirectUri: string; challenge: string; expiresAt: number }>();
  readonly accessTokens = new Map<string, Grant & { expiresAt: number }>();
  readonly refreshTokens = new Map<string, Grant>();
  readonly appTokens = new Map<string, number>();
  readonly chat: PostedChat[] = [];
  readonly rewards = new Map<string, SimulatedReward>();
  readonly deletions: SimulatedDeletion[] = [];
  readonly bans: SimulatedBan[] = [];
  /** Each settled redemption id and how (a rejected one refunds the viewer's channel points). */
  readonly redemptions = new Map<string, 'accepted' | 'rejected'>();
  /** 401s answered to an expired or unknown token on the chat endpoint. */
  unauthorized = 0;
  refreshes = 0;
  /** 429s answered (over the chat limit). */
  throttled = 0;
  /** Chat posts being answered right now, and the most there ever were at once. */
  inFlight = 0;
  maxInFlight = 0;
  /** Accepted chat posts' times (ms), for the limit's window. */
  readonly postTimes: number[] = [];
  /** For tests and demos: how long a chat post takes to answer, and Kick's known failures to play. */
  chatDelayMs = 0;
  failBotType = false;
  channelMissing = false;
  /** For tests and demos: Kick's daily chat-message quota (accepted posts per UTC day); null = none. */
  dailyLimit: number | null = null;
  /** Accepted chat posts per UTC day ("YYYY-MM-DD"), for the daily quota. */
  readonly postsPerDay = new Map<string, number>();
  /** Refusals for the daily quota. */
  quotaRefused = 0;

  constructor(public chatLimit: { count: number; windowMs: number } = { count: 10, windowMs: 10_000 }) {}

  expireAll(): number {
    for (const t of this.accessTokens.values()) t.expiresAt = 0;
    return this.accessTokens.size;
  }
}

const authorizeQuery = z.object({
  response_type: z.literal('code'),
  client_id: z.string().min(1),
  redirect_uri: z.url(),
  state: z.string().min(1),
  scope: z.string().min(1),
  code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  code_challenge_method: z.literal('S256'),
});
type AuthorizeQuery = z.infer<typeof authorizeQuery>;

const chatBody = z.object({
  type: z.enum(['bot', 'user']),
  content: z.string().min(1).max(500),
  broadcaster_user_id: z.number().int().optional(),
  reply_to_message_id: z.string().optional(),
});

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const token = () => randomBytes(24).toString('base64url').toUpperCase();

export async function kickBotSimulatorRoutes(
  app: FastifyInstance,
  opts: {
    config: Extract<KickBotConfig, { mode: 'kick' | 'simulator' }>;
    state: KickSimulatorState;
    defaultUser: string;
  },
): Promise<void> {
  const { config, state } = opts;
  const now = () => app.clock.now().getTime();

  const readAuthorize = (query: unknown): AuthorizeQuery | string => {
    const q = authorizeQuery.safeParse(query);
    if (!q.success) {
      return 'Invalid request: response_type=code, client_id, redirect_uri, state, scope, code_challenge and code_challenge_method=S256 are all required.';
    }
    if (q.data.client_id !== config.clientId) return 'Unknown client_id.';
    if (q.data.redirect_uri !== config.redirectUri) return 'redirect_uri is not registered for this app.';
    return q.data;
  };

  const badRequest = (reply: FastifyReply, text: string) =>
    reply
      .status(400)
      .type('text/html; charset=utf-8')
      .send(
        page('Kick — invalid request', `<h1>Invalid request</h1><p class="lead">${escapeHtml(text)}</p>`, KICK_GREEN),
      );

  app.get('/oauth/authorize', async (request, reply) => {
    const q = readAuthorize(request.query);
    if (typeof q === 'string') return badRequest(reply, q);
    const action = escapeHtml(`authorize?${new URLSearchParams(q).toString()}`);
    const scopes = q.scope
      .split(/\s+/)
      .map((s) => `<li><code>${escapeHtml(s)}</code></li>`)
      .join('');
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return page(
      'Authorize — Kick (simulated)',
      `<h1>Kick <small class="hint">simulated</small></h1>
<p class="lead">An app wants to use your Kick account with these permissions:</p><ul>${scopes}</ul>
<p class="hint">Sign in as the account the bot should post as. With <code>type: "bot"</code> Kick posts into the channel of the token's owner: connect the streamer's account (or a bot account when replies may appear in its own channel).</p>
<div class="card"><form method="post" action="${action}">
  <label for="username">Kick username</label>
  <input id="username" name="username" required maxlength="25" value="${escapeHtml(opts.defaultUser)}">
  <input type="hidden" name="decision" value="allow">
  <button class="primary" type="submit">Allow access</button>
</form></div>
<form method="post" action="${action}"><input type="hidden" name="decision" value="deny"><button class="ghost" type="submit">Deny</button></form>`,
      KICK_GREEN,
    );
  });

  app.post('/oauth/authorize', async (request, reply) => {
    const q = readAuthorize(request.query);
    if (typeof q === 'string') return badRequest(reply, q);
    const form = z
      .object({
        decision: z.enum(['allow', 'deny']),
        username: z
          .string()
          .trim()
          .regex(/^\w{3,25}$/)
          .optional(),
      })
      .safeParse(request.body);
    if (!form.success) return badRequest(reply, 'A Kick username is 3–25 letters, digits or _.');
    const back = new URL(q.redirect_uri);
    back.searchParams.set('state', q.state);
    if (form.data.decision === 'deny' || !form.data.username) {
      back.searchParams.set('error', 'access_denied');
      return reply.redirect(back.toString(), 302);
    }
    const code = token();
    state.codes.set(code, {
      userId: simulatedKickUserId(form.data.username),
      username: form.data.username,
      scope: q.scope,
      redirectUri: q.redirect_uri,
      challenge: q.code_challenge,
      expiresAt: now() + CODE_TTL_MS,
    });
    back.searchParams.set('code', code);
    return reply.redirect(back.toString(), 302);
  });

  const issue = (grant: Grant) => {
    const access = token();
    const refresh = token();
    state.accessTokens.set(access, { ...grant, expiresAt: now() + KICK_TOKEN_TTL_S * 1000 });
    state.refreshTokens.set(refresh, grant);
    return {
      access_token: access,
      token_type: 'Bearer',
      refresh_token: refresh,
      expires_in: KICK_TOKEN_TTL_S,
      scope: grant.scope,
    };
  };

  app.post('/oauth/token', async (request, reply) => {
    const oauthError = (status: number, error: string, description: string) =>
      reply.status(status).send({ error, error_description: description });
    if (!String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return oauthError(400, 'invalid_request', 'the body must be form-encoded');
    }
    const body = (request.body ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    if (str(body.client_id) !== config.clientId || !sameText(str(body.client_secret), config.clientSecret)) {
      return oauthError(401, 'invalid_client', 'client authentication failed');
    }
    reply.header('cache-control', 'no-store');
    switch (str(body.grant_type)) {
      case 'authorization_code': {
        const code = str(body.code);
        const grant = state.codes.get(code);
        state.codes.delete(code); // single use, even when the rest is wrong
        const verifier = str(body.code_verifier);
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (
          !grant ||
          grant.expiresAt < now() ||
          grant.redirectUri !== str(body.redirect_uri) ||
          grant.challenge !== challenge
        ) {
          return oauthError(400, 'invalid_grant', 'invalid code, redirect_uri or code_verifier');
        }
        return issue({ userId: grant.userId, username: grant.username, scope: grant.scope });
      }
      case 'refresh_token': {
        const grant = state.refreshTokens.get(str(body.refresh_token));
        if (!grant) return oauthError(400, 'invalid_grant', 'invalid refresh token');
        state.refreshTokens.delete(str(body.refresh_token));
        state.refreshes += 1;
        return issue(grant);
      }
      case 'client_credentials': {
        const access = token();
        state.appTokens.set(access, now() + 3600_000);
        return { access_token: access, token_type: 'Bearer', expires_in: 3600 };
      }
      default:
        return oauthError(400, 'unsupported_grant_type', 'unsupported grant type');
    }
  });

  const userOf = (authorization: string | undefined) => {
    const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const grant = bearer ? state.accessTokens.get(bearer) : undefined;
    return grant && grant.expiresAt > now() ? grant : null;
  };

  app.get('/public/v1/users', async (request, reply) => {
    const user = userOf(request.headers.authorization);
    if (!user) return reply.status(401).send({ data: null, message: 'Unauthorized' });
    return {
      data: [
        { user_id: Number(user.userId), name: user.username, email: `${user.username}@kick.test`, profile_picture: '' },
      ],
      message: 'OK',
    };
  });

  app.post('/public/v1/chat', async (request, reply) => {
    state.inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    try {
      if (state.chatDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.chatDelayMs));
      return await postChat(request.headers.authorization, request.body, reply);
    } finally {
      state.inFlight -= 1;
    }
  });

  const postChat = async (authorization: string | undefined, raw: unknown, reply: FastifyReply) => {
    const user = userOf(authorization);
    if (!user) {
      state.unauthorized += 1;
      return reply.status(401).send({ data: null, message: 'Unauthorized' });
    }
    if (!user.scope.split(/\s+/).includes('chat:write'))
      return reply.status(403).send({ data: null, message: 'Forbidden' });
    const body = chatBody.safeParse(raw);
    if (!body.success) return reply.status(400).send({ data: null, message: 'Invalid request' });
    if (body.data.type === 'user' && body.data.broadcaster_user_id === undefined) {
      return reply.status(400).send({ data: null, message: 'broadcaster_user_id is required' });
    }
    if (state.channelMissing) return reply.status(404).send({ data: null, message: 'Channel not found' });
    if (state.failBotType && body.data.type === 'bot') {
      return reply.status(500).send({ data: null, message: 'Internal Server Error' });
    }
    const at = now();
    const day = new Date(at).toISOString().slice(0, 10);
    if (state.dailyLimit !== null && (state.postsPerDay.get(day) ?? 0) >= state.dailyLimit) {
      state.quotaRefused += 1;
      return reply.status(429).send({ data: null, message: 'Daily chat message quota exceeded' });
    }
    const { count, windowMs } = state.chatLimit;
    while (state.postTimes.length > 0 && state.postTimes[0]! <= at - windowMs) state.postTimes.shift();
    if (state.postTimes.length >= count) {
      state.throttled += 1;
      const waitS = Math.max(1, Math.ceil((state.postTimes[0]! + windowMs - at) / 1000));
      return reply.status(429).header('retry-after', String(waitS)).send({ data: null, message: 'Too Many Requests' });
    }
    state.postTimes.push(at);
    state.postsPerDay.set(day, (state.postsPerDay.get(day) ?? 0) + 1);
    const messageId = randomBytes(16).toString('hex');
    state.chat.push({
      messageId,
      senderUserId: user.userId,
      senderUsername: user.username,
      channelUserId: body.data.type === 'user' ? String(body.data.broadcaster_user_id) : user.userId,
      type: body.data.type,
      content: body.data.content,
      replyToMessageId: body.data.reply_to_message_id ?? null,
      at: new Date(at).toISOString(),
    });
    return { data: { is_sent: true, message_id: messageId }, message: 'OK' };
  };

  const withScope = (request: { headers: { authorization?: string } }, reply: FastifyReply, scope: string) => {
    const user = userOf(request.headers.authorization);
    if (!user) {
      void reply.status(401).send({ data: null, message: 'Unauthorized' });
      return null;
    }
    if (!user.scope.split(/\s+/).includes(scope)) {
      void reply.status(403).send({ data: null, message: 'Forbidden' });
      return null;
    }
    return user;
  };
  const invalid = (reply: FastifyReply) => reply.status(400).send({ data: null, message: 'Invalid request' });

  app.get('/public/v1/channels/rewards', async (request, reply) => {
    if (!withScope(request, reply, 'channel:rewards:read')) return reply;
    return { data: [...state.rewards.values()], message: 'OK' };
  });
  app.post('/public/v1/channels/rewards', async (request, reply) => {
    if (!withScope(request, reply, 'channel:rewards:write')) return reply;
    const body = rewardBody.safeParse(request.body);
    if (!body.success) return invalid(reply);
    if (state.rewards.size >= SIMULATED_REWARDS_MAX) {
      return reply.status(400).send({ data: null, message: 'Maximum number of rewards reached' });
    }
    const reward: SimulatedReward = {
      id: `01${randomBytes(12).toString('hex').toUpperCase()}`,
      description: '',
      is_paused: false,
      is_user_input_required: false,
      should_redemptions_skip_request_queue: false,
      ...body.data,
    };
    state.rewards.set(reward.id, reward);
    return { data: reward, message: 'OK' };
  });
  app.patch<{ Params: { id: string } }>('/public/v1/channels/rewards/:id', async (request, reply) => {
    if (!withScope(request, reply, 'channel:rewards:write')) return reply;
    const reward = state.rewards.get(request.params.id);
    if (!reward) return reply.status(404).send({ data: null, message: 'Not found' });
    const body = rewardBody.partial().safeParse(request.body);
    if (!body.success) return invalid(reply);
    Object.assign(reward, body.data);
    return { data: reward, message: 'OK' };
  });
  app.delete<{ Params: { id: string } }>('/public/v1/channels/rewards/:id', async (request, reply) => {
    if (!withScope(request, reply, 'channel:rewards:write')) return reply;
    if (!state.rewards.delete(request.params.id)) return reply.status(404).send({ data: null, message: 'Not found' });
    return reply.status(204).send();
  });
  app.get('/public/v1/channels/rewards/redemptions', async (request, reply) => {
    if (!withScope(request, reply, 'channel:rewards:read')) return reply;
    return { data: [...state.redemptions].map(([id, status]) => ({ id, status })), message: 'OK' };
  });
  for (const decision of ['accept', 'reject'] as const) {
    app.post(`/public/v1/channels/rewards/redemptions/${decision}`, async (request, reply) => {
      if (!withScope(request, reply, 'channel:rewards:write')) return reply;
      const body = redemptionIds.safeParse(request.body);
      if (!body.success) return invalid(reply);
      // Settling is final on Kick: an id settled before fails.
      const failed = body.data.ids.filter((id) => state.redemptions.has(id));
      for (const id of body.data.ids) {
        if (!state.redemptions.has(id)) state.redemptions.set(id, decision === 'accept' ? 'accepted' : 'rejected');
      }
      return { data: { failed_ids: failed }, message: 'OK' };
    });
  }

  app.delete<{ Params: { id: string } }>('/public/v1/chat/:id', async (request, reply) => {
    const user = withScope(request, reply, 'moderation:chat_message:manage');
    if (!user) return reply;
    if (state.deletions.some((d) => d.messageId === request.params.id)) {
      return reply.status(404).send({ data: null, message: 'Message not found' });
    }
    state.deletions.push({
      messageId: request.params.id,
      byUsername: user.username,
      at: new Date(now()).toISOString(),
    });
    return reply.status(204).send();
  });
  app.post('/public/v1/moderation/bans', async (request, reply) => {
    const user = withScope(request, reply, 'moderation:ban');
    if (!user) return reply;
    const body = banBody.safeParse(request.body);
    if (!body.success) return invalid(reply);
    if (String(body.data.user_id) === String(body.data.broadcaster_user_id)) {
      return reply.status(400).send({ data: null, message: 'You cannot ban the broadcaster' });
    }
    state.bans.push({
      broadcasterUserId: String(body.data.broadcaster_user_id),
      userId: String(body.data.user_id),
      durationMinutes: body.data.duration ?? null,
      reason: body.data.reason ?? null,
      byUsername: user.username,
      at: new Date(now()).toISOString(),
    });
    return { data: {}, message: 'OK' };
  });

  app.post('/tokens/expire', async () => ({ expired: state.expireAll() }));
  app.get('/chat/messages', async () => ({
    messages: state.chat,
    unauthorized: state.unauthorized,
    refreshes: state.refreshes,
    throttled: state.throttled,
    maxInFlight: state.maxInFlight,
  }));
  app.get('/moderation', async () => ({ deletions: state.deletions, bans: state.bans }));
}
