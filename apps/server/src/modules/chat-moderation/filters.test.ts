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

  it('repeated characters: runs counted as first written, in any script and any whitespace', () => {
    const f = filters({ repeatedChars: { enabled: true, maxRun: 3 } });
    // The rule as first written: a run of one character (not whitespace), over code points.
    const longest = (text: string) => {
      let best = 0;
      let run = 0;
      let prev = '';
      for (const ch of text.replace(/\[emote:\d+:[^\]\s]*\]/g, ' ')) {
        if (ch === prev && !/\s/.test(ch)) run += 1;
        else run = 1;
        prev = ch;
        if (run > best) best = run;
      }
      return best;
    };
    const pieces = ['a', 'A', ' ', '\t', '\u00a0', '\u3000', '\ufeff', '😀', '\uD83D', '\uDE00', 'é', '[emote:1:x]'];
    let seed = 5;
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    for (let n = 0; n < 3000; n++) {
      const text = Array.from({ length: 2 + Math.floor(next() * 12) }, () => {
        const piece = pieces[Math.floor(next() * pieces.length)]!;
        return piece.repeat(1 + Math.floor(next() * 3));
      }).join('');
      expect(rule(f, text) === 'repeatedChars', JSON.stringify(text)).toBe(longest(text) > 3);
    }
  });

  it('repeated messages: the same text from the same sender within the window', () => {
    const f = filters({ repeatedMessages: { enabled: true, maxRepeats: 2, windowSeconds: 60 } });
    expect(rule(f, 'buy now', [], 0)).toBeNull();
    expect(rule(f, 'Buy  now', [], 1000)).toBeNull();
    expect(rule(f, 'buy now', [], 2000)).toBe('repeatedMessages');
    expect(rule(f, 'buy now', [], 200_000)).toBeNull(); // the window passed
  });

  it('repeated messages: more than maxRepeats earlier lines within the window, counted from now', () => {
    const f = filters({ repeatedMessages: { enabled: true, maxRepeats: 3, windowSeconds: 10 } });
    const at = (content: string, now: number, kickUserId = '1') =>
      f.verdict({ ...msg(content), kickUserId }, now)?.rule ?? null;
    // The threshold: the fourth line is the first over it.
    expect([at('spam', 0), at('spam', 1), at('spam', 2), at('spam', 3)]).toEqual([
      null,
      null,
      null,
      'repeatedMessages',
    ]);
    // A line exactly the window old is out of it: at 10,000 the lines at 1–3 count, not the one at 0.
    expect(at('spam', 10_000)).toBe('repeatedMessages');
    expect(at('spam', 10_001)).toBe('repeatedMessages'); // 2, 3 and 10,000
    expect(at('spam', 10_003)).toBeNull(); // 10,000 and 10,001: the line at 3 is out
    expect(at('spam', 30_000)).toBeNull(); // none left
  });

  it('repeated messages: each sender counted alone; case, edge and inner spaces ignored', () => {
    const f = filters({ repeatedMessages: { enabled: true, maxRepeats: 1, windowSeconds: 60 } });
    const at = (content: string, kickUserId: string, now = 0) =>
      f.verdict({ ...msg(content), kickUserId }, now)?.rule ?? null;
    expect(at('Buy now', 'a')).toBeNull();
    expect(at('buy now', 'b')).toBeNull(); // another sender
    expect(at('  BUY\t\n  now ', 'a')).toBe('repeatedMessages');
    expect(at('buy\u00a0now', 'b')).toBe('repeatedMessages'); // any whitespace, as \s
    expect(at('buy now!', 'c')).toBeNull();
    expect(at('buynow', 'c')).toBeNull(); // spaces collapse, they do not vanish
  });

  it('repeated messages: a sender’s last 20 lines are remembered, and the 20,000 most recent senders', () => {
    const f = filters({ repeatedMessages: { enabled: true, maxRepeats: 1, windowSeconds: 3600 } });
    const at = (content: string, kickUserId: string, now: number) =>
      f.verdict({ ...msg(content), kickUserId }, now)?.rule ?? null;
    at('first', 'a', 0);
    for (let i = 1; i < 20; i++) at(`line ${i}`, 'a', i);
    expect(at('first', 'a', 20)).toBe('repeatedMessages'); // 19 lines later: still remembered
    for (let i = 21; i < 41; i++) at(`other ${i}`, 'a', i);
    expect(at('first', 'a', 41)).toBeNull(); // 20 lines later: forgotten
    // Senders: 'a' is heard again after 'old', so 'old' is the one forgotten when a new one comes.
    at('hello', 'old', 50);
    at('hello', 'a', 51);
    for (let i = 0; i < 19_998; i++) at('hi', `s${i}`, 100);
    at('hello', 'new', 200); // the 20,001st sender
    expect(at('hello', 'a', 300)).toBe('repeatedMessages');
    expect(at('hello', 'old', 300)).toBeNull();
  });

  it('repeated messages: the same verdicts as the rule as first written, on random chat', () => {
    // The rule as first written: per sender an array filtered by the window, the last 20 kept,
    // senders refreshed in a Map's insertion order and the least recent dropped past 20,000.
    const reference = (maxRepeats: number, windowSeconds: number) => {
      const recent = new Map<string, Array<{ text: string; at: number }>>();
      return (kickUserId: string, content: string, now: number) => {
        const text = content.trim().toLowerCase().replace(/\s+/g, ' ');
        const since = now - windowSeconds * 1000;
        const lines = (recent.get(kickUserId) ?? []).filter((l) => l.at > since);
        const same = lines.filter((l) => l.text === text).length;
        lines.push({ text, at: now });
        if (lines.length > 20) lines.shift();
        recent.delete(kickUserId);
        recent.set(kickUserId, lines);
        if (recent.size > 20_000) recent.delete(recent.keys().next().value!);
        return same >= maxRepeats;
      };
    };
    let seed = 11;
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    for (const [maxRepeats, windowSeconds, senders] of [
      [1, 5, 3],
      [2, 60, 40],
      [3, 2, 8],
    ] as const) {
      const f = filters({ repeatedMessages: { enabled: true, maxRepeats, windowSeconds } });
      const expected = reference(maxRepeats, windowSeconds);
      const texts = [
        'gg',
        'GG ',
        'g g',
        'lets go',
        'LETS  GO',
        'lets\tgo',
        'lets \u00a0go',
        'hi',
        'Hi  there',
        ' hi\n',
      ];
      let now = 1_000_000;
      for (let n = 0; n < 5000; n++) {
        // Mostly forward, sometimes the same millisecond, now and then a clock set back.
        const step = next();
        now += step < 0.05 ? -3000 : step < 0.2 ? 0 : Math.floor(next() * 800);
        const sender = String(Math.floor(next() * senders));
        const content = texts[Math.floor(next() * texts.length)]!;
        const got = f.verdict({ ...msg(content), kickUserId: sender }, now)?.rule === 'repeatedMessages';
        expect(got, `message ${n}`).toBe(expected(sender, content, now));
      }
    }
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
