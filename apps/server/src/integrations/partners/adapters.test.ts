/**
 * The partner adapters against recorded-shape answers (fixtures/), the variants
 * docs/integrations.md#partner-sites describes, and garbage: each request is checked (path, query,
 * auth header), each answer normalised to one shape with exact hundredths, and anything unreadable
 * refused with a clear error.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { casesAdapter } from './cases/adapter';
import { clashFamilyAdapter } from './clash/adapter';
import { csgoBigAdapter } from './csgobig/adapter';
import { howlAdapter } from './howl/adapter';
import { amountToCents } from './lenient';
import { roobetAdapter } from './roobet/adapter';
import { rustMagicAdapter } from './rustmagic/adapter';
import { PartnerHttpError, PartnerResponseError, type PartnerWindow } from './types';

const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const fixture = (name: string): string => readFileSync(path.join(fixturesDir, name), 'utf8');

interface Seen {
  url: URL;
  headers: Record<string, string>;
}

/** A fetch that records the request and answers with `body` (text) and `status`. */
function answering(body: string, status = 200): { http: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const http: typeof fetch = async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    seen.push({ url: new URL(input instanceof Request ? input.url : input.toString()), headers });
    return new Response(body, { status, headers: { 'content-type': 'application/json' } });
  };
  return { http, seen };
}

const window: PartnerWindow = {
  start: new Date('2026-03-02T00:00:00Z'),
  end: new Date('2026-03-09T00:00:00Z'),
  now: new Date('2026-03-04T15:30:00Z'),
};

describe('amounts', () => {
  it('reads floats, numeric strings and cent integers exactly, rounding half up at the cent', () => {
    expect(amountToCents(15234.567, 'units')).toBe(1523457n);
    expect(amountToCents(0.1 + 0.2, 'units')).toBe(30n);
    expect(amountToCents('1,200.50', 'units')).toBe(120050n);
    expect(amountToCents(99.995, 'units')).toBe(10000n);
    expect(amountToCents(1234567, 'cents')).toBe(1234567n);
    expect(amountToCents('50000', 'cents')).toBe(50000n);
    expect(amountToCents(-5, 'units')).toBeNull();
    expect(amountToCents('12abc', 'units')).toBeNull();
    expect(amountToCents(Number.NaN, 'units')).toBeNull();
    expect(amountToCents(1e20, 'units')).toBeNull();
    expect(amountToCents(true, 'units')).toBeNull();
  });
});

describe('Roobet affiliate/v2/stats', () => {
  const make = (http: typeof fetch) =>
    roobetAdapter({
      site: 6,
      http,
      baseUrl: 'https://roobetconnect.com',
      apiKey: 'jwt-token',
      affiliateId: 'aff-uuid',
    });

  it('asks for the period with the affiliate id and a Bearer token, and keeps weightedWagered', async () => {
    const { http, seen } = answering(fixture('roobet-stats.json'));
    const rows = await make(http).fetchStandings(window);
    expect(seen[0]?.url.origin + (seen[0]?.url.pathname ?? '')).toBe('https://roobetconnect.com/affiliate/v2/stats');
    expect(Object.fromEntries(seen[0]?.url.searchParams ?? [])).toEqual({
      userId: 'aff-uuid',
      startDate: '2026-03-02T00:00:00.000Z',
      endDate: '2026-03-09T00:00:00.000Z',
    });
    expect(seen[0]?.headers.authorization).toBe('Bearer jwt-token');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual({
      site: 6,
      username: 'SlotSamurai',
      externalId: '5f1c2d3e-aaaa-4bbb-8ccc-0123456789ab',
      avatarUrl: null, // its rankLevelImage is the rank badge, not the player's picture
      wagered: 1523457n,
      weightedWagered: 987655n,
      unit: 'USD',
      onCode: true,
      periodStart: window.start,
      periodEnd: window.end,
    });
    expect(rows[1]).toMatchObject({ username: 'MinesweeperX', wagered: 2200000n, weightedWagered: 220010n });
  });

  it('takes an avatar only from an avatar field, never the rank badge image', async () => {
    const body = JSON.stringify([
      {
        username: 'Pictured',
        wagered: 1,
        avatar: '/avatars/p.png',
        rankLevelImage: 'https://roobet.com/images/ranks/3.png',
      },
      { username: 'Badged', wagered: 1, rankLevelImage: 'https://roobet.com/images/ranks/3.png' },
    ]);
    const rows = await make(answering(body).http).fetchStandings(window);
    expect(rows.map((r) => [r.username, r.avatarUrl])).toEqual([
      ['Pictured', 'https://roobet.com/avatars/p.png'],
      ['Badged', null],
    ]);
  });

  it('reads the { data: [...] } wrapper with numeric strings', async () => {
    const rows = await make(answering(fixture('roobet-stats-wrapped.json')).http).fetchStandings(window);
    expect(rows).toMatchObject([
      { username: 'WrappedOne', externalId: 'u-1', wagered: 120050n, weightedWagered: 60025n },
    ]);
  });

  it('refuses an error status', async () => {
    await expect(make(answering('{"message":"jwt expired"}', 401).http).fetchStandings(window)).rejects.toBeInstanceOf(
      PartnerHttpError,
    );
  });
});

describe('Clash.gg detailed-summary/v2 (and the royale account)', () => {
  const make = (http: typeof fetch, site: 1 | 2 = 1) =>
    clashFamilyAdapter({
      site,
      http,
      baseUrl: 'https://api.clash.gg',
      apiKey: 'clash-jwt',
      unit: 'gems',
      avatarOrigin: 'https://clash.gg',
    });

  it('asks since the period start day with a Bearer token and reads gem cents', async () => {
    const { http, seen } = answering(fixture('clash-summary-array.json'));
    const rows = await make(http).fetchStandings(window);
    expect(seen[0]?.url.toString()).toBe('https://api.clash.gg/affiliates/detailed-summary/v2/2026-03-02');
    expect(seen[0]?.headers.authorization).toBe('Bearer clash-jwt');
    expect(rows.map((r) => [r.username, r.externalId, r.wagered, r.avatarUrl, r.unit])).toEqual([
      ['CaseCrusher', '482913', 1234567n, 'https://clash.gg/avatars/482913.png', 'gems'],
      ['Gambit', '771200', 99n, 'https://clash.gg/avatars/771200.png', 'gems'],
      ['NoWagerYet', '771201', 0n, null, 'gems'],
    ]);
    expect(rows[0]?.weightedWagered).toBeNull();
  });

  it('reads the { players: [{ xp }] } variant', async () => {
    const rows = await make(answering(fixture('clash-summary-players.json')).http, 2).fetchStandings(window);
    expect(rows.map((r) => [r.site, r.username, r.externalId, r.wagered])).toEqual([
      [2, 'CaseCrusher', '482913', 1234567n],
      [2, 'XpOnly', '90001', 50000n],
    ]);
  });

  it('reads the { referralSummaries: [...] } variant', async () => {
    const rows = await make(answering(fixture('clash-summary-referrals.json')).http).fetchStandings(window);
    expect(rows).toMatchObject([
      { username: 'RefSummaryUser', externalId: '1', wagered: 4200n, avatarUrl: 'https://clash.gg/a.png' },
    ]);
  });
});

describe('Cases.gg (Clash API family)', () => {
  it('reads cents in USD and never asks for a future date', async () => {
    const { http, seen } = answering(fixture('cases-summary.json'));
    const adapter = casesAdapter({ site: 7, http, baseUrl: 'https://api.cases.gg', apiKey: 'cases-jwt' });
    const rows = await adapter.fetchStandings(window);
    expect(seen[0]?.url.pathname).toBe('/affiliates/detailed-summary/v2/2026-03-02');
    expect(rows).toMatchObject([
      { site: 7, username: 'BoxOpener', externalId: 'c-9001', wagered: 730055n, unit: 'USD' },
    ]);
    await adapter.fetchStandings({ ...window, start: new Date('2026-03-10T00:00:00Z') });
    expect(seen[1]?.url.pathname).toBe('/affiliates/detailed-summary/v2/2026-03-04');
  });
});

describe('CSGOBig getRefDetails', () => {
  const make = (http: typeof fetch) =>
    csgoBigAdapter({ site: 3, http, baseUrl: 'https://csgobig.com', refCode: 'VEX CODE' });

  it('puts the code in the path, the window in epoch ms, and resolves relative avatars', async () => {
    const { http, seen } = answering(fixture('csgobig-ref-details.json'));
    const rows = await make(http).fetchStandings(window);
    expect(seen[0]?.url.pathname).toBe('/api/partners/getRefDetails/VEX%20CODE');
    expect(seen[0]?.url.searchParams.get('from')).toBe(String(window.start.getTime()));
    expect(seen[0]?.url.searchParams.get('to')).toBe(String(window.end.getTime()));
    expect(seen[0]?.headers.authorization).toBeUndefined();
    expect(rows.map((r) => [r.username, r.wagered, r.avatarUrl])).toEqual([
      ['SkinSniper', 481013n, 'https://csgobig.com/assets/avatars/skin.jpg'],
      ['KnifeDrop', 31050n, 'https://avatars.steamstatic.com/abc_full.jpg'],
    ]);
  });

  it('refuses success: false with the partner’s reason', async () => {
    await expect(make(answering(fixture('csgobig-failure.json')).http).fetchStandings(window)).rejects.toThrow(
      /success: false \(Invalid referral code\)/,
    );
  });
});

describe('RustMagic affiliates-data/users', () => {
  const make = (http: typeof fetch) =>
    rustMagicAdapter({ site: 5, http, baseUrl: 'https://api.rustmagic.com', apiKey: 'rm-key' });

  it('sends epoch seconds and x-api-key, and reads the plain array with name/wager aliases', async () => {
    const { http, seen } = answering(fixture('rustmagic-array.json'));
    const rows = await make(http).fetchStandings(window);
    expect(seen[0]?.url.pathname).toBe('/api/affiliates-data/users');
    expect(seen[0]?.url.searchParams.get('fromTime')).toBe(String(window.start.getTime() / 1000));
    expect(seen[0]?.url.searchParams.get('toTime')).toBe(String(window.end.getTime() / 1000));
    expect(seen[0]?.headers['x-api-key']).toBe('rm-key');
    expect(rows.map((r) => [r.username, r.externalId, r.wagered])).toEqual([
      ['RustBaron', '31337', 84520n],
      ['ScrapCollector', '31338', 1235n],
    ]);
  });

  it('reads the { users } variant, and of the { data: [{ board }] } variant only the configured board’s rows', async () => {
    expect(await make(answering(fixture('rustmagic-users.json')).http).fetchStandings(window)).toMatchObject([
      { username: 'RustBaron', externalId: '76561198000031337', wagered: 84520n },
    ]);
    const ours = rustMagicAdapter({
      site: 5,
      http: answering(fixture('rustmagic-data-board.json')).http,
      baseUrl: 'https://api.rustmagic.com',
      apiKey: 'rm-key',
      board: 'KICKBACK',
    });
    const rows = await ours.fetchStandings(window);
    // `board` is a board name (compared case-insensitively), not an "on the code" flag.
    expect(rows.map((r) => [r.username, r.wagered, r.onCode])).toEqual([
      ['OnTheCode', 100000n, true],
      ['AlsoOurs', 50000n, true],
    ]);
  });

  it('refuses to merge the boards of an answer naming several when no board is configured', async () => {
    await expect(make(answering(fixture('rustmagic-data-board.json')).http).fetchStandings(window)).rejects.toThrow(
      /the answer lists 2 boards \(Kickback, weekly-race\); set RUSTMAGIC_BOARD to yours/,
    );
  });
});

describe('Howl affiliate/lb', () => {
  it('sends the raw key (no Bearer), ISO dates and limit 1000', async () => {
    const { http, seen } = answering(fixture('howl-lb.json'));
    const rows = await howlAdapter({ site: 4, http, baseUrl: 'https://howl.gg', apiKey: 'raw-key' }).fetchStandings(
      window,
    );
    expect(seen[0]?.headers.authorization).toBe('raw-key');
    expect(Object.fromEntries(seen[0]?.url.searchParams ?? [])).toEqual({
      from: '2026-03-02T00:00:00.000Z',
      to: '2026-03-09T00:00:00.000Z',
      limit: '1000',
    });
    expect(rows.map((r) => [r.username, r.externalId, r.wagered])).toEqual([
      ['nightowl', 'h-77', 250075n],
      ['tiltproof', 'h-78', 10000n],
    ]);
  });
});

describe('garbage is refused with a reason, never half-read', () => {
  const adapters = {
    roobet: (http: typeof fetch) =>
      roobetAdapter({ site: 6, http, baseUrl: 'https://r.test', apiKey: 'k', affiliateId: 'a' }),
    clash: (http: typeof fetch) =>
      clashFamilyAdapter({
        site: 1,
        http,
        baseUrl: 'https://c.test',
        apiKey: 'k',
        unit: 'gems',
        avatarOrigin: 'https://c.test',
      }),
    csgobig: (http: typeof fetch) => csgoBigAdapter({ site: 3, http, baseUrl: 'https://b.test', refCode: 'k' }),
    rustmagic: (http: typeof fetch) => rustMagicAdapter({ site: 5, http, baseUrl: 'https://m.test', apiKey: 'k' }),
    howl: (http: typeof fetch) => howlAdapter({ site: 4, http, baseUrl: 'https://h.test', apiKey: 'k' }),
  };
  const garbage: Array<[string, string, RegExp]> = [
    ['an HTML page (Cloudflare challenge)', '<!DOCTYPE html><html><body>Just a moment...</body></html>', /not JSON/],
    [
      'an error object',
      '{"error":"Internal error","code":500}',
      /expected a list of players, got an object with error, code/,
    ],
    ['a bare number', '42', /expected a list of players, got number/],
    ['null', 'null', /expected a list of players, got null/],
    ['rows without names or wagers', '[{"foo":1},{"bar":"x"},[1,2]]', /none of the 3 rows could be read/],
    [
      'negative and non-numeric wagers',
      '[{"name":"a","username":"a","wagered":-5,"wageredUSD":-5,"wagerTotal":-5},{"name":"b","username":"b","wagered":"lots","wageredUSD":"lots","wagerTotal":"lots"}]',
      /none of the 2 rows could be read/,
    ],
  ];
  for (const [name, make] of Object.entries(adapters)) {
    for (const [what, body, error] of garbage) {
      it(`${name}: ${what}`, async () => {
        const promise = make(answering(body).http).fetchStandings(window);
        await expect(promise).rejects.toBeInstanceOf(PartnerResponseError);
        await expect(make(answering(body).http).fetchStandings(window)).rejects.toThrow(error);
      });
    }
  }

  it('skips unreadable rows among readable ones, and accepts an empty list', async () => {
    const body = JSON.stringify([{ username: 'Good', wagered: 10 }, { username: 'Bad', wagered: 'x' }, 'junk', null]);
    expect((await adapters.rustmagic(answering(body).http).fetchStandings(window)).map((r) => r.username)).toEqual([
      'Good',
    ]);
    expect(await adapters.roobet(answering('[]').http).fetchStandings(window)).toEqual([]);
  });

  it('a Roobet row whose weightedWagered is unreadable is skipped rather than ranked on a guess', async () => {
    const body = JSON.stringify([
      { username: 'A', wagered: 10, weightedWagered: 'n/a' },
      { username: 'B', wagered: 10, weightedWagered: 5 },
    ]);
    expect((await adapters.roobet(answering(body).http).fetchStandings(window)).map((r) => r.username)).toEqual(['B']);
  });
});

describe('over a real socket', () => {
  let server: Server;
  let base: string;
  const requests: IncomingMessage[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req);
      if (req.url?.startsWith('/slow')) return; // never answers
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(fixture('howl-lb.json'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('talks HTTP to a local partner and honours an abort', async () => {
    const rows = await howlAdapter({ site: 4, http: fetch, baseUrl: base, apiKey: 'sock-key' }).fetchStandings(window);
    expect(rows).toHaveLength(2);
    expect(requests[0]?.headers.authorization).toBe('sock-key');
    const controller = new AbortController();
    const pending = howlAdapter({ site: 4, http: fetch, baseUrl: `${base}/slow`, apiKey: 'k' }).fetchStandings(
      window,
      controller.signal,
    );
    controller.abort();
    await expect(pending).rejects.toThrow();
  });
});
