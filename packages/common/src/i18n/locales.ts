/**
 * The languages Kickback speaks (docs/features/languages.md): English, Spanish and Brazilian
 * Portuguese. One list, shared by the web app, the server and the bot, so a language cannot be
 * offered on one side and missing on the other.
 */
export const LOCALES = ['en', 'es', 'pt-BR'] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';

/** Each language's name in itself, for the language switch. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
};

/** The cookie a signed-out visitor's choice is kept in (a signed-in viewer's is on their profile). */
export const LOCALE_COOKIE = 'kb_lang';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * The supported language closest to one tag: exact, then by its primary language (`es-MX` → `es`,
 * `pt`/`pt-PT` → `pt-BR`, `en-GB` → `en`); null when none is close.
 */
export function closestLocale(tag: string): Locale | null {
  const wanted = tag.trim().toLowerCase();
  if (wanted === '') return null;
  const exact = LOCALES.find((l) => l.toLowerCase() === wanted);
  if (exact) return exact;
  const primary = wanted.split('-')[0];
  return LOCALES.find((l) => l.toLowerCase().split('-')[0] === primary) ?? null;
}

/**
 * The language a browser prefers among ours, from an `Accept-Language` header (weights honoured)
 * or `navigator.languages`; null when it names none of them.
 */
export function negotiateLocale(preferences: string | readonly string[] | undefined | null): Locale | null {
  if (!preferences) return null;
  const ranked =
    typeof preferences === 'string'
      ? preferences
          .split(',')
          .map((part, index) => {
            const [tag = '', ...params] = part.trim().split(';');
            const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
            const weight = q === undefined ? 1 : Number(q.slice(2));
            return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
          })
          .filter((p) => p.weight > 0 && p.tag !== '*')
          .sort((a, b) => b.weight - a.weight || a.index - b.index)
          .map((p) => p.tag)
      : preferences;
  for (const tag of ranked) {
    const found = closestLocale(tag);
    if (found) return found;
  }
  return null;
}
