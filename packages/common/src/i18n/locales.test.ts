import { describe, expect, it } from 'vitest';
import { closestLocale, isLocale, negotiateLocale } from './locales';

describe('locales', () => {
  it('knows its three languages', () => {
    expect(isLocale('pt-BR')).toBe(true);
    expect(isLocale('pt')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });

  it('maps a tag to the closest supported language', () => {
    expect(closestLocale('es-MX')).toBe('es');
    expect(closestLocale('pt-PT')).toBe('pt-BR');
    expect(closestLocale('PT-br')).toBe('pt-BR');
    expect(closestLocale('en-GB')).toBe('en');
    expect(closestLocale('de-DE')).toBeNull();
  });

  it('negotiates Accept-Language by weight, then order', () => {
    expect(negotiateLocale('de-DE,de;q=0.9,es;q=0.8,en;q=0.7')).toBe('es');
    expect(negotiateLocale('en;q=0.5, pt-BR;q=0.9')).toBe('pt-BR');
    expect(negotiateLocale('fr, *;q=0.1')).toBeNull();
    expect(negotiateLocale('es;q=0, en')).toBe('en');
    expect(negotiateLocale(['fr-FR', 'pt'])).toBe('pt-BR');
    expect(negotiateLocale('')).toBeNull();
  });
});
