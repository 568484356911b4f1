/**
 * The language the web app speaks, in the contract's order (docs/features/languages.md#on-the-site):
 * the viewer's own choice, the cookie, the browser's languages when the site follows them, the
 * site's default.
 */
import { describe, expect, it } from 'vitest';
import { chooseLocale, localeCookie, localeCookieString } from './choose-locale';

const site = { default: 'pt-BR', followBrowser: true } as const;

describe('the language the app speaks', () => {
  it("takes the signed-in viewer's own choice over everything else", () => {
    expect(chooseLocale({ userLanguage: 'es', cookie: 'kb_lang=en', browserLanguages: ['en-US'], site })).toBe('es');
  });

  it('takes the cookie when the viewer has no choice of their own (or is signed out)', () => {
    expect(chooseLocale({ userLanguage: null, cookie: 'a=1; kb_lang=es', browserLanguages: ['en-US'], site })).toBe(
      'es',
    );
    expect(chooseLocale({ cookie: 'kb_lang=en', browserLanguages: ['es-MX'], site })).toBe('en');
  });

  it("follows the browser's languages when the site says so, else the site's default", () => {
    expect(chooseLocale({ cookie: '', browserLanguages: ['fr-FR', 'es-AR'], site })).toBe('es');
    expect(chooseLocale({ cookie: '', browserLanguages: ['es-AR'], site: { ...site, followBrowser: false } })).toBe(
      'pt-BR',
    );
    expect(chooseLocale({ cookie: '', browserLanguages: ['fr-FR', 'de'], site })).toBe('pt-BR');
  });

  it('ignores a cookie that names no language of ours', () => {
    expect(localeCookie('kb_lang=fr')).toBeNull();
    expect(localeCookie('other=es')).toBeNull();
    expect(chooseLocale({ cookie: 'kb_lang=xx', browserLanguages: [], site })).toBe('pt-BR');
  });

  it('keeps a choice in the cookie for a year, for the whole site', () => {
    expect(localeCookieString('pt-BR')).toBe('kb_lang=pt-BR; Path=/; Max-Age=31536000; SameSite=Lax');
  });
});
