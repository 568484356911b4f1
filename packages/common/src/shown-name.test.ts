import { describe, expect, it } from 'vitest';
import { shownName, shownNameOrNull } from './shown-name';

describe('shownName: what an overlay may draw of a name', () => {
  it('drops zero-width and direction-changing characters', () => {
    expect(shownName('Gates\u200B of\u200D Olympus')).toBe('Gates of Olympus');
    expect(shownName('\u202Esuxof\u202C Sweet Bonanza')).toBe('suxof Sweet Bonanza');
    expect(shownName('\u2066Wanted\u2069 \u200Fdead\u200E')).toBe('Wanted dead');
    expect(shownName('\uFEFFBook\u00AD of \u2060Dead\u061C')).toBe('Book of Dead');
    expect(shownName('\u3164\u115FSugar\u2028Rush\u0007')).toBe('SugarRush');
  });

  it('collapses runs of spaces and trims; ordinary letters, accents and emoji stay', () => {
    expect(shownName('  Le   Bandit  ')).toBe('Le Bandit');
    expect(shownName('Señor Pollo 🐔 ドラゴン')).toBe('Señor Pollo 🐔 ドラゴン');
    expect(shownNameOrNull(null)).toBeNull();
    expect(shownNameOrNull('a\u200Bb')).toBe('ab');
  });
});
