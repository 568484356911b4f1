import { describe, expect, it } from 'vitest';
import { isSteamId64, steamId64 } from './steam-id';

describe('isSteamId64', () => {
  it.each([
    ['76561197960265729', 'the first individual account (captured minimum)'],
    ['76561202255233023', 'the last individual account (captured maximum)'],
    ['76561198000000001', 'an account of the 7656119… generation'],
    ['76561200000000000', 'a new 7656120… account'],
  ])('accepts %s, %s', (id) => {
    expect(isSteamId64(id)).toBe(true);
    expect(steamId64.safeParse(id).success).toBe(true);
  });

  it.each([
    ['76561197960265728', 'one below the range (account number 0)'],
    ['76561202255233024', 'one above the range'],
    ['103582791429521408', 'a group id (18 digits)'],
    ['7656119796026572a', 'a letter'],
    [' 76561197960265729', 'padding'],
    ['', 'nothing'],
  ])('refuses %j, %s', (id) => {
    expect(isSteamId64(id)).toBe(false);
    expect(steamId64.safeParse(id).success).toBe(false);
  });
});
