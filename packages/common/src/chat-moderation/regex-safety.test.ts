import { describe, expect, it } from 'vitest';
import { regexProblem, REGEX_MAX_LENGTH } from './regex-safety';

describe('the moderation pattern check', () => {
  it.each([
    'b+a+d+ ?w+o+r+d+',
    '(?:free|cheap) (?:skins|coins)',
    '^[a-z]{3}\\d{2,4}$',
    'bit\\.ly/\\w+',
    '(ab)+',
    '\\p{Lu}{5}',
  ])('accepts %s', (p) => expect(regexProblem(p)).toBeNull());

  it.each([
    ['(a+)+$', /nested quantifiers/],
    ['(a*b?)*', /nested quantifiers/],
    ['((ab)+)+', /nested quantifiers/],
    ['(a|ab)*c', /alternatives under a quantifier/],
    ['(\\w|\\d)+x', /alternatives under a quantifier/],
    ['(a)\\1', /backreference/],
    ['(?<x>a)\\k<x>', /backreference/],
    ['a(?=b)', /lookahead/],
    ['\\s*\\s*\\s*\\s*x', /unbounded repeats/],
    ['a{1,5000}', /repeat count/],
    ['(', /not a valid regular expression/],
    ['', /empty/],
  ])('refuses %s', (p, why) => expect(regexProblem(p)).toMatch(why));

  it('refuses a pattern over the length cap', () => {
    expect(regexProblem('a'.repeat(REGEX_MAX_LENGTH + 1))).toMatch(/longer than/);
  });
});
