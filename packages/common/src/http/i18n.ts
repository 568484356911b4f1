/**
 * Languages (docs/features/languages.md#settings): a viewer's own choice, the site's and the chat
 * bot's languages an admin sets, and the server's catalogues for the translator page.
 */
import { z } from 'zod';
import { LOCALES } from '../i18n/locales';
import { defineEndpoint } from './endpoint';

const locale = (what: string) => z.enum(LOCALES, `Pick ${what}: ${LOCALES.join(', ')}.`);

/** A viewer's choice: one of the languages, or null to follow the site. */
export const myLanguageBody = z.object({
  language: locale('a language').nullable(),
});
export type MyLanguageBody = z.infer<typeof myLanguageBody>;

/** A localized chat command: `!apostar` (es) does what `!bet` does. */
export const chatAlias = z.object({ locale: z.enum(LOCALES), alias: z.string(), command: z.string() });
export type ChatAlias = z.infer<typeof chatAlias>;

/** The language settings an admin changes on Admin → Settings → Languages. */
export const languageSettingsBody = z.object({
  siteDefault: locale("the site's language"),
  followBrowser: z.boolean('Say whether a first visit follows the browser’s language.'),
  chat: locale('the chat language'),
  chatAliases: z.boolean('Say whether the chat takes the commands in its language.'),
});
export type LanguageSettingsBody = z.infer<typeof languageSettingsBody>;

export const languageSettings = languageSettingsBody.extend({
  /** Every localized chat command the bot knows, whether or not they are on. */
  aliases: z.array(chatAlias),
});
export type LanguageSettings = z.infer<typeof languageSettings>;

/** One catalogue: key → text, per language, per namespace. */
export const translationCatalogues = z.object({
  namespaces: z.record(z.string(), z.record(z.enum(LOCALES), z.record(z.string(), z.string()))),
});
export type TranslationCatalogues = z.infer<typeof translationCatalogues>;

export const i18nEndpoints = {
  /** The signed-in viewer's language, kept on their account (null: follow the site). */
  setMyLanguage: defineEndpoint({
    method: 'PUT',
    path: '/api/me/language',
    access: 'user',
    body: myLanguageBody,
    response: z.object({ message: z.string(), language: z.enum(LOCALES).nullable() }),
  }),
  languageSettings: defineEndpoint({
    method: 'GET',
    path: '/api/admin/site/languages',
    access: 'admin',
    response: languageSettings,
  }),
  /** Audited; the site's part shows in `/api/site` at once. */
  updateLanguages: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/site/languages',
    access: 'admin',
    body: languageSettingsBody,
    response: z.object({ message: z.string(), settings: languageSettings }),
  }),
  /** The server's catalogues (the web's are in its bundle), for the translator page. */
  translations: defineEndpoint({
    method: 'GET',
    path: '/api/admin/translations',
    access: 'admin',
    response: translationCatalogues,
  }),
};
