import { describe, expect, it } from 'vitest';
import { STEAM_ASSOC_HANDLE, STEAM_SIGNED_FIELDS, verifyAssertion, type VerifyContext } from './openid';

const provider = 'https://steamcommunity.com/openid/login';
const returnTo = 'https://site.test/auth/steam/callback?state=abc';
const now = new Date('2026-11-21T10:00:00Z');

function assertion(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    state: 'abc',
    'openid.ns': 'http://specs.openid.net/auth/2.0',
    'openid.mode': 'id_res',
    'openid.op_endpoint': provider,
    'openid.claimed_id': 'https://steamcommunity.com/openid/id/76561199999999001',
    'openid.identity': 'https://steamcommunity.com/openid/id/76561199999999001',
    'openid.return_to': returnTo,
    'openid.response_nonce': '2026-11-21T09:59:30Zr4nd0m',
    'openid.assoc_handle': STEAM_ASSOC_HANDLE,
    'openid.signed': STEAM_SIGNED_FIELDS,
    'openid.sig': 'c2lnbmF0dXJl',
    ...overrides,
  };
}

function context(
  overrides: Partial<VerifyContext> = {},
  answer = 'ns:http://specs.openid.net/auth/2.0\nis_valid:true\n',
) {
  const seen = new Set<string>();
  const posted: string[] = [];
  const ctx: VerifyContext = {
    providerUrl: provider,
    expectedReturnTo: returnTo,
    cookieState: 'abc',
    queryState: 'abc',
    now,
    fetch: async (_url, init) => {
      posted.push(String(init?.body));
      return new Response(answer, { status: 200 });
    },
    consumeNonce: async (n) => {
      if (seen.has(n)) return false;
      seen.add(n);
      return true;
    },
    ...overrides,
  };
  return { ctx, posted };
}

describe('verifyAssertion', () => {
  it('accepts a genuine assertion and posts every openid field back with check_authentication', async () => {
    const { ctx, posted } = context();
    const result = await verifyAssertion(assertion(), ctx);
    expect(result).toEqual({ ok: true, steamId: '76561199999999001' });
    const body = new URLSearchParams(posted[0]);
    expect(body.get('openid.mode')).toBe('check_authentication');
    expect(body.get('openid.sig')).toBe('c2lnbmF0dXJl');
    expect(body.get('state')).toBeNull();
  });

  const forgeries: Array<[string, Record<string, string>, string]> = [
    ['op_endpoint changed', { 'openid.op_endpoint': 'https://evil.example/openid/login' }, 'op_endpoint'],
    ['mode not id_res', { 'openid.mode': 'cancel' }, 'mode'],
    ['ns wrong', { 'openid.ns': 'http://openid.net/signon/1.1' }, 'ns'],
    [
      'claimed_id differs from identity',
      { 'openid.claimed_id': 'https://steamcommunity.com/openid/id/76561197960287931' },
      'claimed_id_identity',
    ],
    [
      'foreign host in claimed_id (and identity)',
      {
        'openid.claimed_id': 'http://203.0.113.9/openid/id/76561199999999001',
        'openid.identity': 'http://203.0.113.9/openid/id/76561199999999001',
      },
      'claimed_id_format',
    ],
    [
      'lookalike host in claimed_id',
      {
        'openid.claimed_id': 'https://steamcommunity.com.evil.example/openid/id/76561199999999001',
        'openid.identity': 'https://steamcommunity.com.evil.example/openid/id/76561199999999001',
      },
      'claimed_id_format',
    ],
    ['signed list altered', { 'openid.signed': 'signed,claimed_id,identity,return_to,response_nonce' }, 'signed'],
    ['assoc_handle altered', { 'openid.assoc_handle': 'x' }, 'assoc_handle'],
    [
      'return_to on another site',
      { 'openid.return_to': 'https://other.test/auth/steam/callback?state=abc' },
      'return_to',
    ],
    ['nonce without time', { 'openid.response_nonce': 'abc' }, 'nonce_format'],
    ['nonce too old', { 'openid.response_nonce': '2026-11-21T09:40:00Zold' }, 'nonce_stale'],
  ];
  it.each(['76561197960265729', '76561202255233023'])(
    'accepts the edge of the individual-account range, %s (a 7656120… id too)',
    async (id) => {
      const claimed = `https://steamcommunity.com/openid/id/${id}`;
      const { ctx } = context();
      const result = await verifyAssertion(
        assertion({ 'openid.claimed_id': claimed, 'openid.identity': claimed }),
        ctx,
      );
      expect(result).toEqual({ ok: true, steamId: id });
    },
  );

  it.each(['76561202255233024', '76561197960265728'])('refuses %s, just outside the range', async (id) => {
    const claimed = `https://steamcommunity.com/openid/id/${id}`;
    const { ctx, posted } = context();
    const result = await verifyAssertion(assertion({ 'openid.claimed_id': claimed, 'openid.identity': claimed }), ctx);
    expect(result).toMatchObject({ ok: false, check: 'claimed_id_format' });
    expect(posted).toHaveLength(0);
  });

  it.each(forgeries)('refuses %s', async (_name, overrides, check) => {
    const { ctx, posted } = context();
    const result = await verifyAssertion(assertion(overrides), ctx);
    expect(result).toMatchObject({ ok: false, check });
    expect(posted).toHaveLength(0); // refused before asking the provider
  });

  it('refuses a repeated openid field', async () => {
    const { ctx } = context();
    const result = await verifyAssertion({ ...assertion(), 'openid.identity': ['a', 'b'] }, ctx);
    expect(result).toMatchObject({ ok: false, check: 'malformed' });
  });

  it('refuses when the state in the query differs from the cookie', async () => {
    const { ctx } = context({ queryState: 'zzz' });
    expect(await verifyAssertion(assertion(), ctx)).toMatchObject({ ok: false, check: 'state' });
  });

  it('refuses when the state cookie is missing', async () => {
    const { ctx } = context({ cookieState: undefined });
    expect(await verifyAssertion(assertion(), ctx)).toMatchObject({ ok: false, check: 'state' });
  });

  it('refuses a reused nonce even when the provider says it is valid', async () => {
    const { ctx } = context();
    expect((await verifyAssertion(assertion(), ctx)).ok).toBe(true);
    expect(await verifyAssertion(assertion(), ctx)).toMatchObject({ ok: false, check: 'nonce_reused' });
  });

  it('refuses when the provider answers is_valid:false', async () => {
    const { ctx } = context({}, 'ns:http://specs.openid.net/auth/2.0\nis_valid:false\n');
    expect(await verifyAssertion(assertion(), ctx)).toMatchObject({ ok: false, check: 'provider_rejected' });
  });

  it('refuses when the provider is unreachable or rate-limits', async () => {
    const down = context({
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    expect(await verifyAssertion(assertion(), down.ctx)).toMatchObject({ ok: false, check: 'provider_unreachable' });
    const limited = context({ fetch: async () => new Response('slow down', { status: 429 }) });
    expect(await verifyAssertion(assertion(), limited.ctx)).toMatchObject({
      ok: false,
      check: 'provider_unreachable',
    });
  });
});
