import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';

describe('configuration', () => {
  const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) } as const;

  it('refuses to start production with the chat simulator or the Discord simulator', () => {
    expect(() => loadConfig({ ...production, KICK_CHAT_SIMULATOR: '1' })).toThrow(/KICK_CHAT_SIMULATOR/);
    expect(() => loadConfig({ ...production, DISCORD_OAUTH: 'dev' })).toThrow(/DISCORD_OAUTH/);
    const config = loadConfig(production);
    expect(config.kick.simulator).toBe(false);
    expect(config.discord.oauth).toBe('off');
  });

  it('uses the simulators by default outside production, and names a half-configured Kick app', () => {
    const dev = loadConfig({ NODE_ENV: 'development' });
    expect(dev.kick.simulator).toBe(true);
    expect(dev.discord.oauth).toBe('dev');
    expect(() => loadConfig({ KICK_CLIENT_ID: 'abc' })).toThrow(/KICK_CLIENT_SECRET/);
    expect(() => loadConfig({ KICK_CLIENT_ID: 'a', KICK_CLIENT_SECRET: 'b' })).toThrow(/KICK_BROADCASTER_USER_ID/);
    expect(() => loadConfig({ KICK_WEBHOOK_PUBLIC_KEY: 'not a key' })).toThrow(/KICK_WEBHOOK_PUBLIC_KEY/);
    expect(() => loadConfig({ DISCORD_CLIENT_ID: '123' })).toThrow(/DISCORD_CLIENT_SECRET/);
  });
});
