/**
 * The check a moderation filter's regular expression passes when it is saved
 * (docs/features/chat-moderation.md#regular-expressions). JavaScript's regex engine backtracks,
 * and a pattern such as `(a+)+$` takes exponential time on a crafted chat line; no linear-time
 * engine is installed, so the check is conservative and static: it refuses what can backtrack
 * badly rather than trying to prove a pattern safe. Refused, each with its own words:
 *
 * - longer than REGEX_MAX_LENGTH characters;
 * - backreferences (`\1`, `\k<name>`) and lookarounds (they defeat the other checks);
 * - a quantified group that itself contains a quantifier (nested quantifiers, `(a+)+`, `(a*b?)*`);
 * - a quantified group with alternatives (`(a|ab)*`, `(\w|\d)+`): overlapping alternatives under a
 *   quantifier backtrack like nested quantifiers, and telling which overlap is not done here;
 * - more than REGEX_MAX_UNBOUNDED unbounded quantifiers (`*`, `+`, `{n,}`) that may overlap:
 *   adjacent ones over the same characters (`\s*\s*\s*x`) cost a power of the line's length. One
 *   on a character class, an escape, `.` or a group counts; one on a plain letter counts only when
 *   that letter was repeated before (`b+a+d+` is fine, `a+a+a+a+` is not);
 * - a bounded repeat above REGEX_MAX_REPEAT (`{1,5000}`);
 * - anything the engine itself refuses.
 *
 * At run time the line is at most Kick's 500 characters, so what passes stays cheap; the server
 * still times each pattern and switches off one that is slow.
 */

export const REGEX_MAX_LENGTH = 200;
export const REGEX_MAX_UNBOUNDED = 3;
export const REGEX_MAX_REPEAT = 100;

/** Null when the pattern is acceptable, else the problem in words (for a 400's message). */
export function regexProblem(pattern: string): string | null {
  if (pattern.length === 0) return 'the pattern is empty';
  if (pattern.length > REGEX_MAX_LENGTH) return `the pattern is longer than ${REGEX_MAX_LENGTH} characters`;
  try {
    new RegExp(pattern, 'iu');
  } catch (err) {
    return `it is not a valid regular expression (${err instanceof Error ? err.message : 'invalid'})`;
  }

  interface Group {
    /** A quantifier appeared inside this group (at any depth). */
    quantified: boolean;
    /** The group has a top-level `|`. */
    alternation: boolean;
  }
  const stack: Group[] = [{ quantified: false, alternation: false }];
  let unbounded = 0;
  /** What the previous atom was, for a quantifier that follows it. */
  let last: { kind: 'atom'; literal?: string } | { kind: 'group'; group: Group } | null = null;
  const repeatedLetters = new Set<string>();

  const quantify = (isUnbounded: boolean, max: number | null): string | null => {
    if (!last) return null;
    if (isUnbounded) {
      const letter = last.kind === 'atom' ? last.literal?.toLowerCase() : undefined;
      if (letter === undefined || repeatedLetters.has(letter)) unbounded += 1;
      if (letter !== undefined) repeatedLetters.add(letter);
    }
    if (max !== null && max > REGEX_MAX_REPEAT) return `a repeat count above ${REGEX_MAX_REPEAT}`;
    if (last.kind === 'group') {
      if (last.group.quantified) {
        return 'nested quantifiers (a repeated group that contains a repeat, like (a+)+): they can take exponential time';
      }
      if (last.group.alternation) {
        return 'alternatives under a quantifier (like (a|ab)*): overlapping alternatives can take exponential time';
      }
    }
    for (const g of stack) g.quantified = true;
    last = null;
    return null;
  };

  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[i + 1] ?? '';
      if (/[1-9]/.test(n) || n === 'k') return 'a backreference (\\1, \\k<name>): it can take exponential time';
      // \p{…} and \u{…} escapes run on to their closing brace.
      if ((n === 'p' || n === 'P' || n === 'u') && pattern[i + 2] === '{') {
        const end = pattern.indexOf('}', i + 2);
        i = end === -1 ? pattern.length : end;
      } else {
        i += 1;
      }
      last = { kind: 'atom' };
      continue;
    }
    if (c === '[') {
      // A character class is one atom; skip to its unescaped closing bracket.
      let j = i + 1;
      if (pattern[j] === '^') j += 1;
      if (pattern[j] === ']') j += 1;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
      last = { kind: 'atom' };
      continue;
    }
    if (c === '(') {
      if (
        pattern.startsWith('(?=', i) ||
        pattern.startsWith('(?!', i) ||
        pattern.startsWith('(?<=', i) ||
        pattern.startsWith('(?<!', i)
      ) {
        return 'a lookahead or lookbehind: not allowed in filters';
      }
      stack.push({ quantified: false, alternation: false });
      if (pattern.startsWith('(?:', i)) i += 2;
      else if (pattern.startsWith('(?<', i)) i = pattern.indexOf('>', i);
      last = null;
      continue;
    }
    if (c === ')') {
      const group = stack.pop()!;
      if (stack.length === 0) return 'unbalanced parentheses';
      last = { kind: 'group', group };
      continue;
    }
    if (c === '|') {
      stack[stack.length - 1]!.alternation = true;
      last = null;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') {
      const problem = quantify(c !== '?', c === '?' ? 1 : null);
      if (problem) return problem;
      if (pattern[i + 1] === '?') i += 1; // lazy
      continue;
    }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (m) {
        const min = Number(m[1]);
        const max = m[2] === undefined ? min : m[3] === '' ? null : Number(m[3]);
        if (min > REGEX_MAX_REPEAT) return `a repeat count above ${REGEX_MAX_REPEAT}`;
        const problem = quantify(max === null, max);
        if (problem) return problem;
        i += m[0].length - 1;
        if (pattern[i + 1] === '?') i += 1;
        continue;
      }
    }
    last = c === '.' ? { kind: 'atom' } : { kind: 'atom', literal: c };
  }
  if (unbounded > REGEX_MAX_UNBOUNDED) {
    return `more than ${REGEX_MAX_UNBOUNDED} unbounded repeats (*, +, {n,}): several over the same characters can be slow`;
  }
  return null;
}
