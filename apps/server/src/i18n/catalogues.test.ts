/**
 * The server's catalogues (docs/features/languages.md#server-messages) stay whole: every key in
 * every language (plurals with exactly the forms the language has), no key the code never says,
 * the same `{{placeholders}}` in each language, and the English of the texts the web also uses
 * (packages/common/src/messages.ts) word for word the same.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '@kickback/common/i18n/locales';
import { messages } from '@kickback/common/messages';
import { predictionStaffMessages } from '@kickback/common/http/prediction';
import { serverCatalogues, t } from '../lib/i18n';
import { builtins } from '../modules/chat-commands/builtins';

const PLURAL = /_(zero|one|two|few|many|other)$/;
const categories = (locale: Locale) => new Set(new Intl.PluralRules(locale).resolvedOptions().pluralCategories);

/** Every `namespace:key` of one language, plural forms folded into their base key. */
function keysOf(locale: Locale): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const [ns, entries] of Object.entries(serverCatalogues[locale])) {
    for (const key of Object.keys(entries)) {
      const plural = PLURAL.exec(key);
      const base = `${ns}:${plural ? key.slice(0, plural.index) : key}`;
      const forms = keys.get(base) ?? new Set<string>();
      if (plural) forms.add(plural[1]!);
      keys.set(base, forms);
    }
  }
  return keys;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1]!).sort();

/** The placeholders a key uses across its forms (a plural's `one` may leave `count` out). */
function placeholdersOf(locale: Locale, base: string): string[] {
  const [ns, key] = base.split(/:(.*)/s) as [string, string];
  const entries = serverCatalogues[locale][ns] ?? {};
  const found = new Set<string>();
  for (const [k, text] of Object.entries(entries)) {
    if (k === key || (PLURAL.test(k) && k.replace(PLURAL, '') === key)) placeholders(text).forEach((p) => found.add(p));
  }
  found.delete('count');
  return [...found].sort();
}

function sourceText(): string {
  const root = path.resolve(import.meta.dirname, '..');
  const parts: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) parts.push(readFileSync(full, 'utf8'));
    }
  };
  walk(root);
  return parts.join('\n');
}

describe('the server catalogues', () => {
  const english = keysOf('en');

  it('have every key in every language, plurals in the forms each language has', () => {
    for (const locale of LOCALES) {
      const keys = keysOf(locale);
      expect([...keys.keys()].sort(), `${locale}: keys`).toEqual([...english.keys()].sort());
      for (const [base, forms] of english) {
        const own = keys.get(base)!;
        if (forms.size === 0) expect(own.size, `${locale} ${base} is not a plural in English`).toBe(0);
        else expect(own, `${locale} ${base}: plural forms`).toEqual(categories(locale));
      }
    }
  });

  it('name the same placeholders in every language', () => {
    for (const base of english.keys()) {
      for (const locale of LOCALES) {
        expect(placeholdersOf(locale, base), `${locale} ${base}`).toEqual(placeholdersOf('en', base));
      }
    }
  });

  it('hold no key the server never says', () => {
    const source = sourceText();
    // A key is said by its full name (`'store:soldOut'`); a select's forms (`_context`) by its base.
    const unused = [...english.keys()].filter((key) => {
      if (source.includes(`'${key}'`) || source.includes(`\`${key}`)) return false;
      const base = key.replace(/_[^_:]+$/, '');
      return base === key || !(source.includes(`'${base}'`) || source.includes(`\`${base}`));
    });
    expect(unused).toEqual([]);
  });

  it('say the web’s shared texts in English word for word (common:<name> is messages.<name>)', () => {
    const shared = Object.keys(serverCatalogues.en.common ?? {}).filter((k) => k in messages);
    expect(shared.length).toBeGreaterThan(5);
    for (const key of shared) {
      expect(t('en', `common:${key}`), key).toBe(messages[key as keyof typeof messages]);
    }
  });

  it('say the built-ins’ templates and the prediction runner’s refusal as their English sources do', () => {
    for (const b of builtins.filter((x) => x.template)) {
      expect(t('en', 'bot:builtin', { context: b.name }), b.name).toBe(b.template);
    }
    expect(t('en', 'bot:runnerCannotBet')).toBe(predictionStaffMessages.runnerCannotBet);
  });

  it('fall back to English for nothing: no empty text', () => {
    for (const locale of LOCALES) {
      for (const [ns, entries] of Object.entries(serverCatalogues[locale])) {
        for (const [key, text] of Object.entries(entries)) expect(text.trim(), `${locale} ${ns}:${key}`).not.toBe('');
      }
    }
  });
});
