import { describe, expect, it } from 'vitest';
import { DEFAULT_MODERATION_SETTINGS, type ModerationSettings } from '@kickback/common/http/chat-moderation';
import { CompiledFilters, type FilterMessage } from './filters';

type Patch = { [K in keyof ModerationSettings]?: Partial<ModerationSettings[K]> };
function filters(patch: Patch): CompiledFilters {
  const s = structuredClone(DEFAULT_MODERATION_SETTINGS);
  for (const [k, v] of Object.entries(patch)) Object.assign(s[k as keyof ModerationSettings], v);
  return new CompiledFilters(s);
}
const msg = (content: string, badges: string[] = []): FilterMessage => ({
  kickUserId: '1',
  kickUsername: 'viewer',
  badges,
  content,
});
const rule = (f: CompiledFilters, content: string, badges: string[] = [], now = 0) =>
  f.verdict(msg(content, badges), now)?.rule ?? null;

describe('moderation filters', () => {
  it('are all off by default', () => {
    const f = new CompiledFilters(DEFAULT_MODERATION_SETTINGS);
    expect(f.anyOn).toBe(false);
    expect(rule(f, 'HTTP://EVIL.COM AAAAAAAAAAAAAAAAAAAAAA')).toBeNull();
  });

  it('links: any host with a dot, except the allow-list and its subdomains', () => {
    const f = filters({ links: { enabled: true, allowedDomains: ['kick.com', 'example.org'] } });
    for (const bad of ['see evil.com', 'https://www.scam.gg/x?y=1', 'go to bit.ly/abc.', 'HTTP://X.IO:8080']) {
      expect(rule(f, bad), bad).toBe('links');
    }
    for (const ok of [
      'kick.com/vex',
      'https://clips.kick.com/a',
      'docs.example.org',
      'hello... world',
      'v1.2',
      'lol.',
    ]) {
      expect(rule(f, ok), ok).toBeNull();
    }
  });

  it('moderators, the broadcaster, VIPs and chosen badges are immune', () => {
    const f = filters({ links: { enabled: true }, immunity: { badges: ['og'] } });
    for (const b of ['moderator', 'broadcaster', 'vip', 'og']) expect(rule(f, 'evil.com', [b])).toBeNull();
    expect(rule(f, 'evil.com', ['subscriber'])).toBe('links');
  });

  it('caps: over the share of capital letters, from a minimum of letters', () => {
    const f = filters({ caps: { enabled: true, minLetters: 10, maxPercent: 70 } });
    expect(rule(f, 'THIS IS SO LOUD')).toBe('caps');
    expect(rule(f, 'OMG')).toBeNull();
    expect(rule(f, 'This Is Normal Text')).toBeNull();
    expect(rule(f, '[emote:123:KEKW] [emote:456:LULW] hi there friend')).toBeNull();
  });

  it('caps counts letters as the per-character case test does, in any script; length counts characters', () => {
    const f = filters({ caps: { enabled: true, minLetters: 10, maxPercent: 70 } });
    // The rule as first written: a letter is a character whose lower and upper case differ.
    const loud = (text: string) => {
      let letters = 0;
      let upper = 0;
      for (const ch of text.replace(/\[emote:\d+:[^\]\s]*\]/g, ' ')) {
        if (ch.toLowerCase() === ch.toUpperCase()) continue;
        letters += 1;
        if (ch === ch.toUpperCase()) upper += 1;
      }
      return letters >= 10 && upper * 100 > 70 * letters;
    };
    const pieces = ['A', 'b', 'É', 'é', 'Ω', 'ω', 'ß', '1', ' ', '!', '😀', '𝐀', 'Ǆ', 'ǅ', 'ı', 'İ', '中', 'Z', 'z'];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    for (let n = 0; n < 3000; n++) {
      const text = Array.from(
        { length: 8 + Math.floor(next() * 30) },
        () => pieces[Math.floor(next() * pieces.length)],
      ).join('');
      expect(rule(f, text) === 'caps', text).toBe(loud(text));
    }
    const length = filters({ length: { enabled: true, maxLength: 10 } });
    expect(rule(length, '😀'.repeat(10))).toBeNull(); // 20 UTF-16 units, 10 characters
    expect(rule(length, '😀'.repeat(11))).toBe('length');
  });

  it('repeated characters, message length and emote spam', () => {
    expect(rule(filters({ repeatedChars: { enabled: true, maxRun: 5 } }), 'nooooooo')).toBe('repeatedChars');
    expect(rule(filters({ repeatedChars: { enabled: true, maxRun: 5 } }), 'noooo')).toBeNull();
    expect(rule(filters({ length: { enabled: true, maxLength: 10 } }), 'x'.repeat(11))).toBe('length');
    const emotes = filters({ emotes: { enabled: true, maxEmotes: 2 } });
    expect(rule(emotes, '[emote:1:A] [emote:2:B] [emote:3:C]')).toBe('emotes');
    expect(rule(emotes, '[emote:1:A] hi [emote:2:B]')).toBeNull();
  });

  it('repeated messages: the same text from the same sender within the window', () => {
    const f = filters({ repeatedMessages: { enabled: true, maxRepeats: 2, windowSeconds: 60 } });
    expect(rule(f, 'buy now', [], 0)).toBeNull();
    expect(rule(f, 'Buy  now', [], 1000)).toBeNull();
    expect(rule(f, 'buy now', [], 2000)).toBe('repeatedMessages');
    expect(rule(f, 'buy now', [], 200_000)).toBeNull(); // the window passed
  });

  it('banned words match whole words, case-insensitively; patterns match', () => {
    const words = filters({ bannedWords: { enabled: true, words: ['scam', 'free skins'] } });
    expect(rule(words, 'this is a SCAM!')).toBe('bannedWords');
    expect(rule(words, 'get free skins here')).toBe('bannedWords');
    expect(rule(words, 'scamper away')).toBeNull();
    const patterns = filters({ regex: { enabled: true, patterns: ['b+a+d+ ?w+o+r+d+'] } });
    expect(rule(patterns, 'baaad wooord')).toBe('regex');
    expect(rule(patterns, 'good word')).toBeNull();
  });

  it('a line of Kick’s longest length costs little with every filter on', () => {
    const f = filters({
      links: { enabled: true },
      caps: { enabled: true },
      repeatedChars: { enabled: true },
      repeatedMessages: { enabled: true },
      length: { enabled: true },
      emotes: { enabled: true },
      bannedWords: { enabled: true, words: Array.from({ length: 200 }, (_, i) => `word${i}`) },
      regex: { enabled: true, patterns: ['a+b+c+$', '^(?:x|y)z\\d+'] },
    });
    const line = 'a'.repeat(499) + '!';
    const start = performance.now();
    for (let i = 0; i < 200; i++) f.verdict({ ...msg(line), kickUserId: String(i) }, i);
    // Generous: it catches catastrophic backtracking (seconds), not a slow machine.
    expect((performance.now() - start) / 200).toBeLessThan(20);
  });
});
