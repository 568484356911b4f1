import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';

const prod = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://site.example' } as const;

describe('partner configuration', () => {
  it('uses the simulators outside production, the partner when its key is set, nothing in production without one', () => {
    const dev = loadConfig({
      NODE_ENV: 'development',
      PUBLIC_URL: 'http://localhost:3000',
      ROOBET_API_KEY: 'k',
      ROOBET_AFFILIATE_ID: 'a',
    });
    expect(dev.partners[1]).toEqual({
      mode: 'simulator',
      baseUrl: 'http://localhost:3000/dev/partners/clash',
      key: 'dev-simulator-key',
    });
    expect(dev.partners[6]).toEqual({
      mode: 'partner',
      baseUrl: 'https://roobetconnect.com',
      key: 'k',
      affiliateId: 'a',
    });
    expect(dev.leaderboards).toEqual({ poller: true, pollSeconds: 180, cacheSeconds: 15 });

    const live = loadConfig({ ...prod, CSGOBIG_REF_CODE: 'VEX', CSGOBIG_API_URL: 'https://proxy.example/csgobig' });
    expect(live.partners[3]).toEqual({ mode: 'partner', baseUrl: 'https://proxy.example/csgobig', key: 'VEX' });
    expect(live.partners[1]).toEqual({ mode: 'none' });
    expect(loadConfig({ NODE_ENV: 'development', PARTNER_SIMULATORS: '0' }).partners[4]).toEqual({ mode: 'none' });
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ ...prod, PARTNER_SIMULATORS: '1' })).toThrow(/PARTNER_SIMULATORS/);
    expect(() => loadConfig({ ROOBET_API_KEY: 'k' })).toThrow(/ROOBET_AFFILIATE_ID is required/);
    expect(() => loadConfig({ ROOBET_AFFILIATE_ID: 'a' })).toThrow(/ROOBET_API_KEY is required/);
    expect(() => loadConfig({ LEADERBOARD_POLL_SECONDS: '2' })).toThrow(/LEADERBOARD_POLL_SECONDS/);
    expect(() => loadConfig({ HOWL_API_URL: 'not a url' })).toThrow(/HOWL_API_URL/);
  });
});
