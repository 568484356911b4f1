/**
 * Steam sign-in as an OpenID 2.0 relying party, hand-rolled (libraries on npm have skipped these
 * checks before; docs/integrations.md#steam-sign-in-openid-20). An assertion is accepted only when every
 * check holds; the first failing check is reported by name so the log says why.
 */
import { isSteamId64 } from '@kickback/common/steam-id';

export const OPENID_NS = 'http://specs.openid.net/auth/2.0';
export const IDENTIFIER_SELECT = 'http://specs.openid.net/auth/2.0/identifier_select';
export const STEAM_SIGNED_FIELDS = 'signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle';
export const STEAM_ASSOC_HANDLE = '1234567890';
const CLAIMED_ID = /^https:\/\/steamcommunity\.com\/openid\/id\/(\d{17})\/?$/;
const NONCE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)(.{1,255})$/;
const CHECK_TIMEOUT_MS = 6000;
const NONCE_MAX_AGE_MS = 5 * 60 * 1000;
const NONCE_MAX_SKEW_MS = 60 * 1000;

export type OpenIdCheck =
  | 'malformed'
  | 'ns'
  | 'mode'
  | 'op_endpoint'
  | 'claimed_id_identity'
  | 'claimed_id_format'
  | 'signed'
  | 'assoc_handle'
  | 'return_to'
  | 'state'
  | 'nonce_format'
  | 'nonce_stale'
  | 'nonce_reused'
  | 'provider_unreachable'
  | 'provider_rejected';

export type VerifyResult = { ok: true; steamId: string } | { ok: false; check: OpenIdCheck; detail: string };

export interface SigninRequest {
  providerUrl: string;
  returnTo: string;
  realm: string;
}

export function buildSigninUrl({ providerUrl, returnTo, realm }: SigninRequest): string {
  const url = new URL(providerUrl);
  const params: Record<string, string> = {
    'openid.ns': OPENID_NS,
    'openid.mode': 'checkid_setup',
    'openid.return_to': returnTo,
    'openid.realm': realm,
    'openid.identity': IDENTIFIER_SELECT,
    'openid.claimed_id': IDENTIFIER_SELECT,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

export interface VerifyContext {
  /** The configured provider URL; `op_endpoint` must equal it exactly. */
  providerUrl: string;
  /** Our callback URL with this sign-in's state, exactly as we sent it. */
  expectedReturnTo: string;
  /** The state from the cookie, and the one that came back in the query. */
  cookieState: string | undefined;
  queryState: string | undefined;
  now: Date;
  fetch: typeof fetch;
  /** Records the nonce; false when it was seen before. */
  consumeNonce(nonce: string): Promise<boolean>;
}

function fail(check: OpenIdCheck, detail: string): VerifyResult {
  return { ok: false, check, detail };
}

/** Picks the `openid.*` fields; any repeated or non-string field makes the assertion malformed. */
export function openIdFields(query: Record<string, unknown>): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    if (!k.startsWith('openid.')) continue;
    if (typeof v !== 'string') return null;
    out[k] = v;
  }
  return out;
}

export async function verifyAssertion(query: Record<string, unknown>, ctx: VerifyContext): Promise<VerifyResult> {
  const f = openIdFields(query);
  if (!f) return fail('malformed', 'repeated or non-text openid field');
  if (f['openid.ns'] !== OPENID_NS) return fail('ns', `ns=${f['openid.ns'] ?? ''}`);
  if (f['openid.mode'] !== 'id_res') return fail('mode', `mode=${f['openid.mode'] ?? ''}`);
  if (f['openid.op_endpoint'] !== ctx.providerUrl) {
    return fail('op_endpoint', `op_endpoint=${f['openid.op_endpoint'] ?? ''}`);
  }
  const claimed = f['openid.claimed_id'];
  const identity = f['openid.identity'];
  if (!claimed || claimed !== identity) return fail('claimed_id_identity', 'claimed_id differs from identity');
  const match = CLAIMED_ID.exec(claimed);
  if (!match?.[1] || !isSteamId64(match[1])) return fail('claimed_id_format', `claimed_id=${claimed}`);
  if (f['openid.signed'] !== STEAM_SIGNED_FIELDS) return fail('signed', `signed=${f['openid.signed'] ?? ''}`);
  if (f['openid.assoc_handle'] !== STEAM_ASSOC_HANDLE) return fail('assoc_handle', 'unexpected assoc_handle');
  if (!ctx.cookieState || ctx.queryState !== ctx.cookieState) return fail('state', 'state cookie mismatch');
  if (f['openid.return_to'] !== ctx.expectedReturnTo) {
    return fail('return_to', `return_to=${f['openid.return_to'] ?? ''}`);
  }
  const nonce = f['openid.response_nonce'] ?? '';
  const nonceMatch = NONCE.exec(nonce);
  if (!nonceMatch?.[1]) return fail('nonce_format', 'response_nonce is not time-stamped');
  const issued = Date.parse(nonceMatch[1]);
  const age = ctx.now.getTime() - issued;
  if (Number.isNaN(issued) || age > NONCE_MAX_AGE_MS || age < -NONCE_MAX_SKEW_MS) {
    return fail('nonce_stale', `nonce issued ${nonceMatch[1]}`);
  }

  const body = new URLSearchParams({ ...f, 'openid.mode': 'check_authentication' });
  let text: string;
  try {
    const res = await ctx.fetch(ctx.providerUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/plain' },
      body: body.toString(),
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    if (!res.ok) return fail('provider_unreachable', `check_authentication HTTP ${res.status}`);
    text = await res.text();
  } catch (err) {
    return fail('provider_unreachable', `check_authentication failed: ${(err as Error).message}`);
  }
  const answer = parseKeyValue(text);
  if (answer.get('is_valid') !== 'true' || answer.get('ns') !== OPENID_NS) {
    return fail('provider_rejected', `provider answered is_valid:${answer.get('is_valid') ?? '?'}`);
  }
  if (!(await ctx.consumeNonce(nonce))) return fail('nonce_reused', 'response_nonce was used before');
  return { ok: true, steamId: match[1] };
}

/** OpenID key-value form: `key:value\n` lines. */
export function parseKeyValue(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) out.set(line.slice(0, i).trim(), line.slice(i + 1).trim());
  }
  return out;
}

export function toKeyValue(entries: Iterable<[string, string]>): string {
  let out = '';
  for (const [k, v] of entries) out += `${k}:${v}\n`;
  return out;
}
