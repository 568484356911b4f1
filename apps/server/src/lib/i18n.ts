/**
 * The server's words in three languages (docs/features/languages.md#server-messages): one i18next
 * instance for the process, made once at import from the catalogues in `src/i18n/locales/`, each a
 * file per language whose top-level keys are namespaces (`common`, `store`, `bot`, …). Keys are
 * written `namespace:key`; plurals are i18next's `_one`/`_many`/`_other` keys (Intl.PluralRules),
 * variables `{{name}}`. `t(locale, key, vars)` is for code that has no request (the bot, Discord);
 * a request's own language is `request.locale` (plugins/locale.ts).
 *
 * A refusal carries its words as a `Said` (key and variables): the error is thrown in English
 * (logs, tests) and the error handler says it again in the language of the request it answers.
 */
import i18next from 'i18next';
import { DEFAULT_LOCALE, isLocale, LOCALES, negotiateLocale, type Locale } from '@kickback/common/i18n/locales';
import en from '../i18n/locales/en.json';
import es from '../i18n/locales/es.json';
import ptBR from '../i18n/locales/pt-BR.json';

export type Catalogue = Record<string, Record<string, string>>;

/** Every catalogue, by language then namespace. */
export const serverCatalogues: Record<Locale, Catalogue> = { en, es, 'pt-BR': ptBR };

export type TextVars = Record<string, string | number>;

/**
 * Words to say later, in the language of whoever reads them: a catalogue key and its variables
 * (a function of the language when a variable is itself worded, such as a date).
 */
export interface Said {
  readonly key: string;
  readonly vars?: TextVars | ((locale: Locale) => TextVars);
}

export const said = (key: string, vars?: Said['vars']): Said => (vars === undefined ? { key } : { key, vars });

const instance = i18next.createInstance();
void instance.init({
  resources: Object.fromEntries(LOCALES.map((l) => [l, serverCatalogues[l]])),
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  ns: Object.keys(en),
  defaultNS: 'common',
  keySeparator: false,
  nsSeparator: ':',
  // Texts go out as JSON or chat lines, never as HTML: nothing to escape here.
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  returnEmptyString: false,
  showSupportNotice: false,
});

/**
 * The texts already said, by language, key and variables: i18next's `t` costs tens of µs a call
 * (its key, fallback and interpolation machinery), and the server says the same few texts with the
 * same few names again and again (a store's products, its refusals). The cache holds i18next's own
 * answers, bounded; a full cache starts over.
 */
const SAID_CACHE_MAX = 4096;
const saidCache = new Map<string, string>();

/** `key` (`namespace:key`) in `locale`, with its variables (`count` picks the plural, `context` the select). */
export function t(locale: Locale, key: string, vars?: TextVars): string {
  let id = `${locale}\u0000${key}`;
  if (vars !== undefined) for (const name in vars) id += `\u0000${name}\u0001${vars[name]}`;
  const hit = saidCache.get(id);
  if (hit !== undefined) return hit;
  const text = instance.t(key, { ...vars, lng: locale });
  if (saidCache.size >= SAID_CACHE_MAX) saidCache.clear();
  saidCache.set(id, text);
  return text;
}

/** What a `Said` says in `locale`. */
export const say = (locale: Locale, words: Said): string =>
  t(locale, words.key, typeof words.vars === 'function' ? words.vars(locale) : words.vars);

/**
 * The site's language settings (docs/features/languages.md#settings), kept in memory for requests
 * and the bot: the languages module loads them at start and replaces them on every change.
 */
export interface LanguagesNow {
  siteDefault: Locale;
  followBrowser: boolean;
  /** The language the chat bot speaks. */
  chat: Locale;
  /** Whether the chat takes the built-in commands' names in the chat language (`!apostar`). */
  chatAliases: boolean;
}

const ACCEPT_CACHE_MAX = 256;
const acceptCache = new Map<string, Locale | null>();

/**
 * The language an `Accept-Language` header asks for among ours (null: none), remembered per header
 * value: browsers send a handful of distinct values, and parsing one allocates.
 */
export function acceptedLocale(header: string): Locale | null {
  const hit = acceptCache.get(header);
  if (hit !== undefined) return hit;
  const found = negotiateLocale(header);
  if (acceptCache.size >= ACCEPT_CACHE_MAX) acceptCache.clear();
  acceptCache.set(header, found);
  return found;
}

/**
 * The language an answer speaks (docs/features/languages.md#which-language-a-person-sees): the
 * signed-in user's own, else the visitor's cookie, else (when the site follows browsers) the
 * browser's, else the site's default.
 */
export function resolveLocale(
  userLanguage: Locale | null | undefined,
  cookie: string | undefined,
  acceptLanguage: string | undefined,
  site: Pick<LanguagesNow, 'siteDefault' | 'followBrowser'>,
): Locale {
  if (userLanguage) return userLanguage;
  if (isLocale(cookie)) return cookie;
  if (site.followBrowser && acceptLanguage) return acceptedLocale(acceptLanguage) ?? site.siteDefault;
  return site.siteDefault;
}
