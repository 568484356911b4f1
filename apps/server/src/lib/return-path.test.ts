import { describe, expect, it } from 'vitest';
import { safeReturnPath, withSigninOutcome } from './return-path';

const site = 'https://kickback.example';

describe('safeReturnPath: only a path on this site, never an open redirect', () => {
  it.each([
    ['/', '/'],
    ['/store', '/store'],
    ['/Challenges?tab=ended#x', '/Challenges?tab=ended#x'],
    ['/a/../store', '/store'],
  ])('keeps %s', (raw, kept) => {
    expect(safeReturnPath(raw, site)).toBe(kept);
  });

  it.each([
    'https://evil.example/',
    'http://kickback.example.evil.example/',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    ' /store',
    'javascript:alert(1)',
    'store',
    '',
    '/auth/signout',
    '/api/User/ping',
    '/dev/openid/login',
    `/${'a'.repeat(600)}`,
    42,
    undefined,
  ])('refuses %j', (raw) => {
    expect(safeReturnPath(raw, site)).toBeNull();
  });

  it('adds the outcome for the web app without losing the query or hash', () => {
    expect(withSigninOutcome('/store?x=1#top', 'ok', site)).toBe('/store?x=1&signin=ok#top');
    expect(withSigninOutcome('/?signin=ok', 'cancelled', site)).toBe('/?signin=cancelled');
  });
});
