/**
 * The filters themselves (docs/features/chat-moderation.md#the-filters): the saved settings
 * compiled once (banned words into one expression, patterns into RegExps, domains into a set) and
 * a message's verdict — the first rule it breaks, or null. Synchronous and cheap: it runs on every
 * message while a filter is on. Only the repeated-message rule keeps state (the last lines of each
 * sender, in this process's memory: recent-lines.ts).
 */
import {
  MODERATION_RULES,
  type ModerationAction,
  type ModerationRule,
  type ModerationSettings,
} from '@kickback/common/http/chat-moderation';
import { RecentLines } from './recent-lines';

/** Kick's emotes appear in the text as `[emote:<id>:<name>]`. */
const EMOTE = /\[emote:\d+:[^\]\s]*\]/g;
const EMOTE_START = '[emote:';
/**
 * What a line's whitespace is normalised by for the repeated-message rule: each run of `\s` becomes
 * one space. A lone space is left as it is (the same result), so a line with nothing to change is
 * not copied.
 */
const SPACES_TO_JOIN = /\s{2,}|[^\S ]/g;
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
  /** Each rule's verdict, made once: what a message breaking it is answered (never changed). */
  private readonly hits: Readonly<Record<ModerationRule, Readonly<Verdict>>>;
  /** Per Kick user, their recent lines (normalised) and when. */
  private readonly recent = new RecentLines();

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
    const hits = {} as Record<ModerationRule, Readonly<Verdict>>;
    for (const rule of MODERATION_RULES) {
      const f = s[rule];
      hits[rule] = Object.freeze({
        rule,
        action: f.action,
        timeoutMinutes: f.timeoutMinutes,
        warnFirst: f.warnFirst,
        permitable: rule === 'links',
      });
    }
    this.hits = hits;
  }

  isImmune(badges: readonly string[]): boolean {
    return badges.some((b) => this.immune.has(b.toLowerCase()));
  }

  /** The first rule the message breaks, or null; records the line for the repeated-message rule. */
  verdict(message: FilterMessage, now: number): Verdict | null {
    if (!this.anyOn || this.isImmune(message.badges)) return null;
    const s = this.settings;
    const hits = this.hits;
    const text = message.content;
    const repeated = s.repeatedMessages.enabled && this.repeats(message.kickUserId, text, now);
    if (s.bannedWords.enabled && this.banned?.test(text)) return hits.bannedWords;
    if (s.regex.enabled && this.matchesPattern(text)) return hits.regex;
    // Most lines have no emote: then the text is the words as it is, scanned no further for one.
    const hasEmote = text.includes(EMOTE_START);
    const words = hasEmote ? text.replace(EMOTE, ' ') : text;
    if (s.links.enabled && this.hasLink(words)) return hits.links;
    // Characters, not UTF-16 units: counted only when the units alone could exceed the limit.
    if (s.length.enabled && text.length > s.length.maxLength && [...text].length > s.length.maxLength)
      return hits.length;
    if (s.caps.enabled && this.tooLoud(words)) return hits.caps;
    if (s.repeatedChars.enabled && longestRun(words) > s.repeatedChars.maxRun) return hits.repeatedChars;
    if (s.emotes.enabled && hasEmote && (text.match(EMOTE)?.length ?? 0) > s.emotes.maxEmotes) return hits.emotes;
    if (repeated) return hits.repeatedMessages;
    return null;
  }

  private hasLink(text: string): boolean {
    // A link has a dot: a line without one (most) is not split into words.
    if (!text.includes('.')) return false;
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
    // One clock reading between two patterns ends the first's time and starts the next's.
    let start = performance.now();
    for (const p of this.patterns) {
      if (p.off) continue;
      const matched = p.re.test(text);
      const end = performance.now();
      const took = end - start;
      start = end;
      if (took > PATTERN_BUDGET_MS) {
        p.off = true;
        this.onSlowPattern(p.source, took);
        start = performance.now();
      }
      if (matched) return true;
    }
    return false;
  }

  /** Records the line; true when the same text came more than `maxRepeats` times within the window. */
  private repeats(kickUserId: string, content: string, now: number): boolean {
    const { maxRepeats, windowSeconds } = this.settings.repeatedMessages;
    const text = content.trim().toLowerCase().replace(SPACES_TO_JOIN, ' ');
    return this.recent.record(kickUserId, text, now, now - windowSeconds * 1000) >= maxRepeats;
  }
}

/** The longest run of one character (not whitespace), counting characters, not UTF-16 units. */
function longestRun(text: string): number {
  let best = 0;
  let run = 0;
  let prev = -1;
  for (let i = 0; i < text.length; i++) {
    // A character: a surrogate pair's code point, else one unit (a lone surrogate too).
    const ch = text.codePointAt(i)!;
    if (ch > 0xffff) i += 1;
    if (ch === prev && !isSpace(ch)) run += 1;
    else run = 1;
    prev = ch;
    if (run > best) best = run;
  }
  return best;
}

/** Whether the character is one `\s` matches (ECMAScript's WhiteSpace and LineTerminator). */
function isSpace(ch: number): boolean {
  if (ch < 128) return ch === 32 || (ch >= 9 && ch <= 13);
  return (
    ch === 0xa0 ||
    ch === 0x1680 ||
    (ch >= 0x2000 && ch <= 0x200a) ||
    ch === 0x2028 ||
    ch === 0x2029 ||
    ch === 0x202f ||
    ch === 0x205f ||
    ch === 0x3000 ||
    ch === 0xfeff
  );
}
