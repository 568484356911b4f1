import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';

const secret = 'x'.repeat(40);

describe('Discord bot configuration', () => {
  it('uses the local simulator outside production when no bot token is set', () => {
    const { bot, apiUrl } = loadConfig({ PUBLIC_URL: 'http://localhost:3000', SESSION_SECRET: secret }).discord;
    expect(bot).toMatchObject({ mode: 'simulator', api: 'http://localhost:3000/dev/discord/api', version: '10' });
    expect(apiUrl).toBe('http://localhost:3000/dev/discord/api/v10');
  });

  it('uses Discord with DISCORD_BOT_TOKEN, and DISCORD_API_URL with or without a version', () => {
    const real = loadConfig({ DISCORD_BOT_TOKEN: 'bot-token' }).discord.bot;
    expect(real).toEqual({ mode: 'discord', token: 'bot-token', api: 'https://discord.com/api', version: '10' });
    const v9 = loadConfig({ DISCORD_BOT_TOKEN: 't', DISCORD_API_URL: 'https://proxy.example/api/v9/' }).discord;
    expect(v9.bot).toMatchObject({ api: 'https://proxy.example/api', version: '9' });
    expect(v9.apiUrl).toBe('https://proxy.example/api/v9');
    const bare = loadConfig({ DISCORD_API_URL: 'https://proxy.example/api' }).discord;
    expect(bare.apiUrl).toBe('https://proxy.example/api/v10');
  });

  it('has no bot in production without a token (never the simulator)', () => {
    const prod = { NODE_ENV: 'production', SESSION_SECRET: secret, PUBLIC_URL: 'https://site.example' };
    expect(loadConfig(prod).discord.bot).toEqual({ mode: 'off' });
    expect(loadConfig({ ...prod, DISCORD_BOT_TOKEN: 'b' }).discord.bot.mode).toBe('discord');
  });
});
