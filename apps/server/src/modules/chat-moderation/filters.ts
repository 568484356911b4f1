/**
 * The filters themselves (docs/features/chat-moderation.md#the-filters): the saved settings
 * compiled once (banned words into one expression, patterns into RegExps, domains into a set) and
 * a message's verdict — the first rule it breaks, or null. Synchronous and cheap: it runs on every
 * message while a filter is on. Only the repeated-message rule keeps state (the last lines of each
 * sender, in this process's memory).
 */
import type { ModerationAction, ModerationRule, ModerationSettings } from '@kickback/common/http/chat-moderation';

/** Kick's emotes appear in the text as `[emote:<id>:<name>]`. */
const EMOTE = /\[emote:\d+:[^\]\s]*\]/g;
/** A whitespace-separated word that looks like a link: optional scheme, a host with a dot, an optional rest. */
const LINK = /^(?:https?:\/\/)?(?:www\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*\.([a-z]{2,24}))(?::\d{1,5})?(?:[/?#].*)?$/i;
/** A pattern slower than this on one line is switched off in this process (and logged). */
export const PATTERN_BUDGET_MS = 20;
/** Always immune: the channel's staff. */
const STAFF_BADGES = ['broadcaster', 'moderator', 'vip'];

export interface Verdict {
  rule: ModerationRule;
  action: ModerationAction;
  timeoutMinutes: number;
  warnFirst: boolean;
  /** For the link rule: whether a moderator's permit can excuse it. */
  permitable: boolean;
}

export interface FilterMessage {
  kickUserId: string;
  kickUsername: string;
  badges: readonly string[];
  content: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class CompiledFilters {
  /** Whether any filter is on: the one check a message costs while all are off. */
  readonly anyOn: boolean;
  private readonly immune: Set<string>;
  private readonly allowed: string[];
  private readonly banned: RegExp | null;
  private readonly patterns: Array<{ source: string; re: RegExp; off: boolean }>;
  /** Per Kick user, their recent lines (normalised) and when. */
  private readonly recent = new Map<string, Array<{ text: string; at: number }>>();

  constructor(
    readonly settings: ModerationSettings,
    private readonly onSlowPattern: (pattern: string, ms: number) => void = () => undefined,
  ) {
    const s = settings;
    this.anyOn = [
      s.links,
      s.caps,
      s.repeatedChars,
      s.repeatedMessages,
      s.length,
      s.emotes,
      s.bannedWords,
      s.regex,
    ].some((f) => f.enabled);
    this.immune = new Set([...STAFF_BADGES, ...s.immunity.badges]);
    this.allowed = s.links.allowedDomains.map((d) => d.replace(/^\*\./, ''));
    const words = s.bannedWords.words.map((w) => w.toLowerCase()).filter(Boolean);
    // Literal alternatives between non-letters: no quantifier, so linear in the line.
    this.banned =
      words.length > 0
        ? new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${words.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'iu')
        : null;
    this.patterns = s.regex.patterns.map((source) => ({ source, re: new RegExp(source, 'iu'), off: false }));
  }

  isImmune(badges: readonly string[]): boolean {
    return badges.some((b) => this.immune.has(b.toLowerCase()));
  }

  /** The first rule the message breaks, or null; records the line for the repeated-message rule. */
  verdict(message: FilterMessage, now: number): Verdict | null {
    if (!this.anyOn || this.isImmune(message.badges)) return null;
    const s = this.settings;
    const hit = (rule: ModerationRule, f: ModerationSettings[ModerationRule & keyof ModerationSettings]): Verdict => ({
      rule,
      action: f.action,
      timeoutMinutes: f.timeoutMinutes,
      warnFirst: f.warnFirst,
      permitable: rule === 'links',
    });
    const text = message.content;
    const repeated = s.repeatedMessages.enabled && this.repeats(message.kickUserId, text, now);
    if (s.bannedWords.enabled && this.banned?.test(text)) return hit('bannedWords', s.bannedWords);
    if (s.regex.enabled && this.matchesPattern(text)) return hit('regex', s.regex);
    const words = text.replace(EMOTE, ' ');
    if (s.links.enabled && this.hasLink(words)) return hit('links', s.links);
    // Characters, not UTF-16 units: counted only when the units alone could exceed the limit.
    if (s.length.enabled && text.length > s.length.maxLength && [...text].length > s.length.maxLength)
      return hit('length', s.length);
    if (s.caps.enabled && this.tooLoud(words)) return hit('caps', s.caps);
    if (s.repeatedChars.enabled && longestRun(words) > s.repeatedChars.maxRun)
      return hit('repeatedChars', s.repeatedChars);
    if (s.emotes.enabled && (text.match(EMOTE)?.length ?? 0) > s.emotes.maxEmotes) return hit('emotes', s.emotes);
    if (repeated) return hit('repeatedMessages', s.repeatedMessages);
    return null;
  }

  private hasLink(text: string): boolean {
    for (const word of text.split(/\s+/)) {
      if (word.length < 4 || !word.includes('.')) continue;
      const m = LINK.exec(word.replace(/[),.!?;:'"]+$/, ''));
      if (!m) continue;
      const host = m[1]!.toLowerCase();
      if (!this.allowed.some((d) => host === d || host.endsWith(`.${d}`))) return true;
    }
    return false;
  }

  private tooLoud(text: string): boolean {
    let letters = 0;
    let upper = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      // ASCII (nearly every line) without a string per character: its letters are A–Z and a–z.
      if (code < 128) {
        if (code >= 65 && code <= 90) {
          letters += 1;
          upper += 1;
        } else if (code >= 97 && code <= 122) letters += 1;
        continue;
      }
      const point = text.codePointAt(i)!;
      if (point > 0xffff) i += 1;
      const ch = String.fromCodePoint(point);
      const lower = ch.toLowerCase();
      const up = ch.toUpperCase();
      if (lower === up) continue;
      letters += 1;
      if (ch === up) upper += 1;
    }
    const { minLetters, maxPercent } = this.settings.caps;
    return letters >= minLetters && upper * 100 > maxPercent * letters;
  }

  private matchesPattern(text: string): boolean {
    for (const p of this.patterns) {
      if (p.off) continue;
      const start = performance.now();
      const matched = p.re.test(text);
      const took = performance.now() - start;
      if (took > PATTERN_BUDGET_MS) {
        p.off = true;
        this.onSlowPattern(p.source, took);
      }
      if (matched) return true;
    }
    return false;
  }

  /** Records the line; true when the same text came more than `maxRepeats` times within the window. */
  private repeats(kickUserId: string, content: string, now: number): boolean {
    const { maxRepeats, windowSeconds } = this.settings.repeatedMessages;
    const text = content.trim().toLowerCase().replace(/\s+/g, ' ');
    const since = now - windowSeconds * 1000;
    const lines = (this.recent.get(kickUserId) ?? []).filter((l) => l.at > since);
    const same = lines.filter((l) => l.text === text).length;
    lines.push({ text, at: now });
    if (lines.length > 20) lines.shift();
    // Refreshed in insertion order, so the oldest sender is the first to go when the map is full.
    this.recent.delete(kickUserId);
    this.recent.set(kickUserId, lines);
    if (this.recent.size > 20_000) this.recent.delete(this.recent.keys().next().value!);
    return same >= maxRepeats;
  }
}

function longestRun(text: string): number {
  let best = 0;
  let run = 0;
  let prev = '';
  for (const ch of text) {
    if (ch === prev && !/\s/.test(ch)) run += 1;
    else run = 1;
    prev = ch;
    if (run > best) best = run;
  }
  return best;
}
