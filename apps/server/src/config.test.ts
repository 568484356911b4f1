import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const secret = 'x'.repeat(40);

describe('loadConfig', () => {
  it('runs npm start on embedded defaults: PGlite in ./data, dev sign-in, demo data', () => {
    const c = loadConfig({});
    expect(c.database).toMatchObject({ kind: 'pglite' });
    expect(c.steam.signin).toBe('dev');
    expect(c.steam.openIdUrl).toBe('http://localhost:3000/dev/openid/login');
    expect(c.demoData).toBe(true);
    expect(c.cookies).toEqual({ secure: false, prefix: '' });
    // The dev provider's demo admin is an admin in dev.
    expect(c.adminSteamIds).toContain('76561199999999001');
  });

  it('uses Secure, __Host- prefixed cookies and Steam in production', () => {
    const c = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret, PUBLIC_URL: 'https://kb.example' });
    expect(c.cookies).toEqual({ secure: true, prefix: '__Host-' });
    expect(c.steam.signin).toBe('steam');
    expect(c.steam.openIdUrl).toBe('https://steamcommunity.com/openid/login');
    expect(c.demoData).toBe(false);
    expect(c.adminSteamIds).toEqual([]);
  });

  it('refuses to start in production with the dev identity provider', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret, STEAM_SIGNIN: 'dev', HOST: '0.0.0.0' }),
    ).toThrow(/dev identity provider cannot run in production/);
    // Without HOST it listens on loopback only, which with the default localhost PUBLIC_URL is the
    // local trial below.
    const unbound = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret, STEAM_SIGNIN: 'dev' });
    expect(unbound.host).toBe('127.0.0.1');
  });

  it('lets a production build use the dev identity provider only when asked and only on loopback (a local trial)', () => {
    const trial = { NODE_ENV: 'production', SESSION_SECRET: secret, STEAM_SIGNIN: 'dev' } as const;
    const local = { ...trial, PUBLIC_URL: 'http://127.0.0.1:3000', HOST: '127.0.0.1' };
    expect(loadConfig(local).steam.signin).toBe('dev');
    expect(loadConfig({ ...local, PUBLIC_URL: 'http://localhost:3000', HOST: '::1' }).steam.signin).toBe('dev');
    // Listening beyond this machine, or a private (not loopback) address: refused.
    expect(() => loadConfig({ ...local, HOST: '0.0.0.0' })).toThrow(/cannot run in production/);
    expect(() => loadConfig({ ...local, PUBLIC_URL: 'http://192.168.1.5:3000' })).toThrow(/cannot run in production/);
    // Never without asking: production on loopback still signs in with Steam.
    const { STEAM_SIGNIN: _asked, ...unasked } = local;
    expect(loadConfig(unasked).steam.signin).toBe('steam');
  });

  it('refuses the dev identity provider on a public address, naming the settings to change', () => {
    const publicSite = { PUBLIC_URL: 'https://vex.example.com' };
    expect(() => loadConfig(publicSite)).toThrow(ConfigError);
    expect(() => loadConfig(publicSite)).toThrow(/public address.*STEAM_API_KEY.*ALLOW_DEV_SIGNIN=1/);
    expect(() => loadConfig({ ...publicSite, STEAM_SIGNIN: 'dev', STEAM_API_KEY: 'k' })).toThrow(
      /Remove STEAM_SIGNIN=dev.*ALLOW_DEV_SIGNIN=1/,
    );
    expect(() => loadConfig({ PUBLIC_URL: 'http://203.0.113.7:3000' })).toThrow(/ALLOW_DEV_SIGNIN/);
    // Allowed on purpose: a private test site on a public name.
    expect(loadConfig({ ...publicSite, ALLOW_DEV_SIGNIN: '1' }).steam.signin).toBe('dev');
    expect(loadConfig({ ...publicSite, ALLOW_DEV_SIGNIN: '1' }).kick.simulator).toBe(true);
    // Real Steam sign-in on a public address: runs, and the chat simulator stays off unless asked.
    const steam = loadConfig({ ...publicSite, STEAM_API_KEY: 'k' });
    expect(steam.steam.signin).toBe('steam');
    expect(steam.kick.simulator).toBe(false);
    expect(() => loadConfig({ ...publicSite, STEAM_API_KEY: 'k', KICK_CHAT_SIMULATOR: '1' })).toThrow(
      /KICK_CHAT_SIMULATOR.*ALLOW_DEV_SIGNIN=1/,
    );
  });

  it.each([
    ['localhost', true],
    ['kickback.localhost', true],
    ['kickback.test', true],
    ['stream-pc.local', true],
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.9', true],
    ['172.32.0.9', false],
    ['192.168.1.20', true],
    ['[::1]', true],
    ['[fd12:3456::1]', true],
    ['[::ffff:7f00:1]', true],
    ['[2001:db8::1]', false],
    ['vex.example.com', false],
    ['8.8.8.8', false],
    ['localhost.example.com', false],
  ])('dev sign-in on PUBLIC_URL http://%s: %s', (host, allowed) => {
    const run = () => loadConfig({ PUBLIC_URL: `http://${host}:3000` });
    if (allowed) expect(run().steam.signin).toBe('dev');
    else expect(run).toThrow(/ALLOW_DEV_SIGNIN/);
  });

  it('refuses production without SESSION_SECRET, or with another OpenID endpoint', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET is required/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret, STEAM_OPENID_URL: 'https://evil.example/login' }),
    ).toThrow(/STEAM_OPENID_URL/);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => loadConfig({ ADMIN_STEAM_IDS: '123' })).toThrow(/ADMIN_STEAM_IDS/);
    expect(() => loadConfig({ ADMIN_STEAM_IDS: '76561202255233024' })).toThrow(/ADMIN_STEAM_IDS/);
    expect(loadConfig({ ADMIN_STEAM_IDS: '76561197960265729, 76561202255233023' }).adminSteamIds).toEqual(
      expect.arrayContaining(['76561197960265729', '76561202255233023']),
    );
    expect(() => loadConfig({ CHAT_POINTS_PER_MINUTE: '-1' })).toThrow(/CHAT_POINTS_PER_MINUTE/);
    expect(() => loadConfig({ CHAT_POINTS_PER_MINUTE: '0.333' })).toThrow(
      /CHAT_POINTS_PER_MINUTE: must have at most 2 decimals/,
    );
    expect(loadConfig({}).chatPoints).toEqual({ pointsPerMinute: 5, flushMs: 5000 });
    expect(loadConfig({}).chatTimersTickMs).toBe(15_000);
  });

  it('selects PostgreSQL with DATABASE_URL and an in-memory PGlite with DATA_DIR=:memory:', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
      poolSize: 10,
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', DATABASE_POOL_SIZE: '24' }).database).toMatchObject({
      poolSize: 24,
    });
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
    expect(loadConfig({ DATA_DIR: ':memory:' }).database).toEqual({ kind: 'pglite', dataDir: null });
  });

  it('CODE_ENCRYPTION_KEY: required for code products in production, derived and stable in development', () => {
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret }).codeKey).toBeNull();
    const key = 'k'.repeat(32);
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret, CODE_ENCRYPTION_KEY: key }).codeKey).toBe(key);
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret, CODE_ENCRYPTION_KEY: 'short' })).toThrow(
      /CODE_ENCRYPTION_KEY/,
    );
    const dev = loadConfig({ NODE_ENV: 'development' }).codeKey;
    expect(dev).toMatch(/^[\w-]{32,}$/);
    expect(loadConfig({ NODE_ENV: 'development' }).codeKey).toBe(dev);
  });
});

describe('production addresses and proxies', () => {
  const prod = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), STEAM_API_KEY: 'k' } as const;
  it('refuses an http:// PUBLIC_URL in production, except on this machine (a local trial)', () => {
    expect(() => loadConfig({ ...prod, PUBLIC_URL: 'http://kick.example.com' })).toThrow(
      /http:\/\/ in production.*HTTPS/,
    );
    expect(loadConfig({ ...prod, PUBLIC_URL: 'https://kick.example.com' }).publicUrl).toBe('https://kick.example.com');
    expect(loadConfig({ ...prod, PUBLIC_URL: 'http://127.0.0.1:3000' }).publicUrl).toBe('http://127.0.0.1:3000');
  });

  it('refuses TRUST_PROXY=yes or true: a hop count or addresses only', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY: must be 0, a number of proxy hops/);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'no' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5' }).trustProxy).toEqual(['10.0.0.5']);
  });
});
