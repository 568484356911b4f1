/**
 * Discord OAuth2, authorization-code flow, scope `identify`: the authorize URL (with our state),
 * the code exchange (form-encoded — Discord accepts nothing else — with the client authenticated by
 * HTTP Basic) and `GET /users/@me` with the user's bearer token.
 */
import { z } from 'zod';
import type { DiscordConfig } from '../../config';

export class DiscordOAuthError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'DiscordOAuthError';
  }
}

export interface DiscordUser {
  id: string;
  username: string;
  globalName: string | null;
}

const tokenResponse = z.object({ access_token: z.string().min(1), token_type: z.string() });
const userResponse = z.object({
  id: z.string().regex(/^\d{5,25}$/),
  username: z.string().min(1).max(100),
  global_name: z.string().max(100).nullish(),
});

const TIMEOUT_MS = 10_000;

export function discordAuthorizeUrl(
  config: Pick<DiscordConfig, 'authorizeUrl' | 'clientId'>,
  opts: { state: string; redirectUri: string },
): string {
  const url = new URL(config.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    scope: 'identify',
    state: opts.state,
    redirect_uri: opts.redirectUri,
    prompt: 'consent',
  }).toString();
  return url.toString();
}

/** Exchanges an authorization code for the user's access token. */
export async function exchangeDiscordCode(
  http: typeof fetch,
  config: Pick<DiscordConfig, 'apiUrl' | 'clientId' | 'clientSecret'>,
  code: string,
  redirectUri: string,
): Promise<string> {
  const basic = Buffer.from(
    `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`,
  ).toString('base64');
  const res = await http(`${config.apiUrl}/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      authorization: `Basic ${basic}`,
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!res.ok) throw new DiscordOAuthError(`token exchange: Discord answered ${res.status}`, res.status);
  const parsed = tokenResponse.safeParse(await res.json().catch(() => null));
  if (!parsed.success || parsed.data.token_type.toLowerCase() !== 'bearer') {
    throw new DiscordOAuthError('token exchange: unexpected answer', res.status);
  }
  return parsed.data.access_token;
}

export async function fetchDiscordUser(http: typeof fetch, apiUrl: string, accessToken: string): Promise<DiscordUser> {
  const res = await http(`${apiUrl}/users/@me`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!res.ok) throw new DiscordOAuthError(`users/@me: Discord answered ${res.status}`, res.status);
  const parsed = userResponse.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new DiscordOAuthError('users/@me: unexpected answer', res.status);
  return { id: parsed.data.id, username: parsed.data.username, globalName: parsed.data.global_name ?? null };
}
