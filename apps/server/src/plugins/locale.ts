/**
 * The language each request is answered in (docs/features/languages.md#server-messages):
 * `request.locale`, worked out when read from the signed-in user's choice, the `kb_lang` cookie,
 * the browser's `Accept-Language` (when the site follows browsers) and the site's default, in that
 * order (lib/i18n.ts). Nothing is looked up per request: the site's settings are held in
 * `app.languages`, which the languages module loads at start and replaces when an admin changes
 * them, in every process. `request.t(key, vars)` says a catalogue text in that language.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LOCALE_COOKIE, type Locale } from '@kickback/common/i18n/locales';
import { plugin } from '../lib/plugin';
import { resolveLocale, t, type LanguagesNow, type TextVars } from '../lib/i18n';

declare module 'fastify' {
  interface FastifyRequest {
    /** The language this request is answered in. */
    readonly locale: Locale;
    /** A catalogue text (`namespace:key`) in the request's language. */
    t(key: string, vars?: TextVars): string;
  }
  interface FastifyInstance {
    /** The site's and the bot's language settings as now (modules/languages keeps them current). */
    languages: LanguagesNow;
  }
}

export const localePlugin = plugin({
  name: 'localePlugin',
  dependencies: ['sessionPlugin'],
})(async (app: FastifyInstance) => {
  const { language } = app.config.site;
  const initial: LanguagesNow = {
    siteDefault: language.default,
    followBrowser: language.followBrowser,
    chat: language.default,
    chatAliases: false,
  };
  app.decorate('languages', initial);
  app.decorateRequest('locale', {
    getter(this: FastifyRequest): Locale {
      // Cookies are parsed in an onRequest hook: an error answered before it has none.
      const cookies = this.cookies as FastifyRequest['cookies'] | undefined;
      return resolveLocale(
        this.user?.language,
        cookies?.[LOCALE_COOKIE],
        this.headers['accept-language'],
        app.languages,
      );
    },
  });
  app.decorateRequest('t', function (this: FastifyRequest, key: string, vars?: TextVars): string {
    return t(this.locale, key, vars);
  });
});
