/**
 * The few calls Kick's official API is needed for: an app token (client credentials), the event
 * subscriptions, the webhook public key, posting to chat, and moderation (deleting a chat message,
 * timeouts and bans). Responses are wrapped as
 * `{ data, message }`.
 */
import { z } from 'zod';
import type { Clock } from '../../lib/clock';

export class KickApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** A 429's `Retry-After`, in milliseconds, when Kick sent one. */
    readonly retryAfterMs: number | null = null,
    /** Kick's own words (`message` of its answer), when it gave any. */
    readonly kickMessage: string | null = null,
  ) {
    super(message);
    this.name = 'KickApiError';
  }
}

/** `Retry-After` as seconds or an HTTP date → milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Who a chat post speaks as: `bot` posts as the token's owner into the owner's own channel (the
 * streamer's account); `user` posts as the token's owner into the broadcaster's channel (a separate
 * bot account).
 */
export type ChatPostAs = { type: 'bot' } | { type: 'user'; broadcasterUserId: string };

const tokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().optional(),
});

export const kickSubscription = z.object({
  id: z.string(),
  broadcaster_user_id: z.union([z.number(), z.string()]).transform(String).nullish(),
  event: z.string(),
  version: z.number(),
  method: z.string().nullish(),
});
export type KickSubscription = z.infer<typeof kickSubscription>;

const subscriptionsResponse = z.object({ data: z.array(kickSubscription) });
const createResponse = z.object({
  data: z.array(
    z.object({
      name: z.string().nullish(),
      version: z.number().nullish(),
      subscription_id: z.string().nullish(),
      error: z.string().nullish(),
    }),
  ),
});
const publicKeyResponse = z.object({ data: z.object({ public_key: z.string().min(1) }) });
const chatResponse = z.object({
  data: z.object({ is_sent: z.boolean(), message_id: z.string().nullish() }).nullish(),
});
const kickMessage = z.object({ message: z.string() });

export const kickReward = z.object({
  id: z.string().min(1),
  title: z.string(),
  cost: z.number(),
  description: z.string().nullish(),
  is_paused: z.boolean().nullish(),
  is_user_input_required: z.boolean().nullish(),
  should_redemptions_skip_request_queue: z.boolean().nullish(),
});
export type KickReward = z.infer<typeof kickReward>;
const rewardResponse = z.object({ data: kickReward });
const rewardsResponse = z.object({ data: z.array(kickReward) });
const redemptionsResponse = z.object({
  data: z.object({ failed_ids: z.array(z.string()).nullish() }).nullish(),
});

const TIMEOUT_MS = 10_000;

export interface KickAppKeys {
  clientId: string;
  clientSecret: string;
}

export interface KickApiOptions {
  apiUrl: string;
  oauthUrl: string;
  /** The app's credentials, or a function reading the current ones (they may change while running). */
  app: KickAppKeys | null | (() => KickAppKeys | null);
  http: typeof fetch;
  clock: Clock;
}

export class KickApi {
  private token: { value: string; expiresAt: number; clientId: string } | null = null;

  constructor(private readonly opts: KickApiOptions) {}

  private async json<T>(res: Response, schema: z.ZodType<T>, what: string): Promise<T> {
    if (!res.ok) throw new KickApiError(`${what}: Kick answered ${res.status}`, res.status);
    const parsed = schema.safeParse(await res.json().catch(() => null));
    if (!parsed.success) throw new KickApiError(`${what}: unexpected answer`, res.status);
    return parsed.data;
  }

  /** An app access token (client credentials), reused until shortly before it expires. */
  async appToken(): Promise<string> {
    const now = this.opts.clock.now().getTime();
    const app = typeof this.opts.app === 'function' ? this.opts.app() : this.opts.app;
    // A token of the app's previous keys is not reused once they change.
    if (this.token && this.token.expiresAt > now && this.token.clientId === app?.clientId) return this.token.value;
    if (!app) throw new KickApiError('no Kick app is configured', 0);
    const res = await this.opts.http(`${this.opts.oauthUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: app.clientId,
        client_secret: app.clientSecret,
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const body = await this.json(res, tokenResponse, 'app token');
    const lifetimeMs = (body.expires_in ?? 3600) * 1000;
    this.token = {
      value: body.access_token,
      expiresAt: now + Math.max(0, lifetimeMs - 60_000),
      clientId: app.clientId,
    };
    return body.access_token;
  }

  private async authed(path: string, init: RequestInit = {}): Promise<Response> {
    const token = await this.appToken();
    return this.opts.http(`${this.opts.apiUrl}${path}`, {
      ...init,
      headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...init.headers },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  }

  async listSubscriptions(): Promise<KickSubscription[]> {
    const res = await this.authed('/public/v1/events/subscriptions');
    return (await this.json(res, subscriptionsResponse, 'list subscriptions')).data;
  }

  async createSubscriptions(broadcasterUserId: string, events: readonly string[]) {
    const res = await this.authed('/public/v1/events/subscriptions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        broadcaster_user_id: Number(broadcasterUserId),
        events: events.map((name) => ({ name, version: 1 })),
        method: 'webhook',
      }),
    });
    return (await this.json(res, createResponse, 'create subscriptions')).data;
  }

  /** The PEM Kick signs webhooks with, asked for with the app token as every public client does. */
  async publicKey(): Promise<string> {
    const res = await this.authed('/public/v1/public-key');
    return (await this.json(res, publicKeyResponse, 'public key')).data.public_key;
  }

  /**
   * Posts to chat, optionally as a reply; the id Kick gave the message. A refusal throws a
   * KickApiError with the status, a 429's Retry-After and Kick's message; no answer at all (a
   * timeout, a dropped connection) throws whatever fetch threw: the post may or may not have landed.
   */
  async sendChat(
    botToken: string,
    content: string,
    replyToMessageId?: string,
    as: ChatPostAs = { type: 'bot' },
  ): Promise<string | null> {
    const res = await this.opts.http(`${this.opts.apiUrl}/public/v1/chat`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${botToken}`,
      },
      body: JSON.stringify({
        type: as.type,
        content: content.slice(0, 500),
        ...(as.type === 'user' ? { broadcaster_user_id: Number(as.broadcasterUserId) } : {}),
        ...(replyToMessageId ? { reply_to_message_id: replyToMessageId } : {}),
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) {
      const said = kickMessage.safeParse(await res.json().catch(() => null));
      throw new KickApiError(
        `send chat: Kick answered ${res.status}${said.success ? ` (${said.data.message})` : ''}`,
        res.status,
        res.status === 429 ? retryAfterMs(res.headers.get('retry-after'), this.opts.clock.now().getTime()) : null,
        said.success ? said.data.message : null,
      );
    }
    const body = await this.json(res, chatResponse, 'send chat');
    if (body.data && !body.data.is_sent) throw new KickApiError('send chat: Kick did not send it', res.status);
    return body.data?.message_id ?? null;
  }

  /** A call with the connected account's token (the channel's owner). */
  private asUser(token: string, path: string, init: RequestInit = {}): Promise<Response> {
    return this.opts.http(`${this.opts.apiUrl}${path}`, {
      ...init,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${token}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  }

  /** Kick's refusal as a KickApiError, with Kick's own words when it gave any. */
  private async refusal(res: Response, what: string): Promise<KickApiError> {
    const said = kickMessage.safeParse(await res.json().catch(() => null));
    return new KickApiError(
      `${what}: Kick answered ${res.status}${said.success ? ` (${said.data.message})` : ''}`,
      res.status,
      res.status === 429 ? retryAfterMs(res.headers.get('retry-after'), this.opts.clock.now().getTime()) : null,
      said.success ? said.data.message : null,
    );
  }

  /**
   * Deletes one chat message (`DELETE /public/v1/chat/{message_id}`, scope
   * `moderation:chat_message:manage`). A refusal throws a KickApiError with the status and Kick's words.
   */
  async deleteChatMessage(token: string, messageId: string): Promise<void> {
    const res = await this.asUser(token, `/public/v1/chat/${encodeURIComponent(messageId)}`, { method: 'DELETE' });
    if (!res.ok) throw await this.refusal(res, 'delete chat message');
  }

  /**
   * Bans a user from the broadcaster's chat (`POST /public/v1/moderation/bans`, scope
   * `moderation:ban`); with `durationMinutes` it is a timeout, which Kick's API takes as
   * `duration`, in whole minutes (docs/features/chat-moderation.md#kicks-moderation-api).
   */
  async banUser(
    token: string,
    ban: { broadcasterUserId: string; userId: string; durationMinutes: number | null; reason: string },
  ): Promise<void> {
    const res = await this.asUser(token, '/public/v1/moderation/bans', {
      method: 'POST',
      body: JSON.stringify({
        broadcaster_user_id: Number(ban.broadcasterUserId),
        user_id: Number(ban.userId),
        reason: ban.reason.slice(0, 100),
        ...(ban.durationMinutes === null ? {} : { duration: ban.durationMinutes }),
      }),
    });
    if (!res.ok) throw await this.refusal(res, 'ban');
  }

  /** The channel's rewards (`channel:rewards:read`). */
  async listRewards(token: string): Promise<KickReward[]> {
    const res = await this.asUser(token, '/public/v1/channels/rewards');
    return (await this.json(res, rewardsResponse, 'list rewards')).data;
  }

  /** Creates a channel reward (`channel:rewards:write`); Kick refuses a 16th. */
  async createReward(
    token: string,
    reward: { title: string; cost: number; description?: string },
  ): Promise<KickReward> {
    const res = await this.asUser(token, '/public/v1/channels/rewards', {
      method: 'POST',
      body: JSON.stringify({
        title: reward.title,
        cost: reward.cost,
        description: reward.description ?? '',
        is_user_input_required: false,
        should_redemptions_skip_request_queue: false,
      }),
    });
    return (await this.json(res, rewardResponse, 'create reward')).data;
  }

  async deleteReward(token: string, id: string): Promise<void> {
    const res = await this.asUser(token, `/public/v1/channels/rewards/${encodeURIComponent(id)}`, { method: 'DELETE' });
    if (!res.ok && res.status !== 404) throw new KickApiError(`delete reward: Kick answered ${res.status}`, res.status);
  }

  /**
   * Accepts or rejects redemptions (a rejected one refunds the viewer's channel points). Returns
   * the ids Kick could not settle.
   */
  async settleRedemptions(token: string, decision: 'accept' | 'reject', ids: readonly string[]): Promise<string[]> {
    const res = await this.asUser(token, `/public/v1/channels/rewards/redemptions/${decision}`, {
      method: 'POST',
      body: JSON.stringify({ ids }),
    });
    return (await this.json(res, redemptionsResponse, `${decision} redemptions`)).data?.failed_ids ?? [];
  }
}
