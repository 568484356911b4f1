/**
 * The catalogue check (docs/features/languages.md#for-translators): every language has every key
 * English has (with the plural forms its own plural rules need), no key is left that the code does
 * not use, and every text names the same placeholders (`{{x}}`) as its English. Pure over the
 * catalogues and the source texts, so its own test can feed it a broken catalogue.
 */
import { LOCALES, type Locale } from '@kickback/common/i18n/locales';

export type Catalogue = { [key: string]: string | Catalogue };

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** "a.b.c" → text, for every leaf. */
export function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** Each key as the code names it (plural forms under their base key), with its texts. */
function grouped(flat: Map<string, string>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [key, text] of flat) {
    const match = PLURAL.exec(key);
    const base = match ? key.slice(0, match.index) : key;
    const forms = out.get(base) ?? new Map<string, string>();
    forms.set(match ? match[1]! : '', text);
    out.set(base, forms);
  }
  return out;
}

const placeholders = (text: string) => new Set([...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!));

/** The keys the source texts use: quoted whole, or matched by a template (`menu.${id}`). */
export function usedKeys(keys: Iterable<string>, sources: readonly string[]): Set<string> {
  const literals = new Set<string>();
  const templates: RegExp[] = [];
  for (const source of sources) {
    for (const m of source.matchAll(/(['"])([\w.-]+)\1/g)) literals.add(m[2]!);
    // A template counts when it starts with a key's first part: `menu.${id}`, not `${a}.${b}`.
    for (const m of source.matchAll(/`([a-zA-Z][\w-]*\.[^`]*\$\{[^`]*)`/g)) {
      const pattern = m[1]!
        .split(/\$\{[^}]*\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[\\w-]+');
      if (/^[\w.\\[\]+-]+$/.test(pattern)) templates.push(new RegExp(`^${pattern}$`));
    }
  }
  return new Set([...keys].filter((k) => literals.has(k) || templates.some((t) => t.test(k))));
}

/** Every problem found, one line each (empty when the catalogues are sound). */
export function catalogueProblems(catalogues: Record<Locale, Catalogue>, sources: readonly string[]): string[] {
  const problems: string[] = [];
  const english = grouped(flatten(catalogues.en));
  for (const locale of LOCALES) {
    const own = grouped(flatten(catalogues[locale]));
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    for (const [key, enForms] of english) {
      const forms = own.get(key);
      if (!forms) {
        problems.push(`${locale}: missing ${key}`);
        continue;
      }
      const plural = !enForms.has('');
      if (plural) {
        for (const c of categories) if (!forms.has(c)) problems.push(`${locale}: missing ${key}_${c}`);
      } else if (!forms.has('')) problems.push(`${locale}: ${key} is plural here but not in English`);
      const want = new Set([...enForms.values()].flatMap((t) => [...placeholders(t)]));
      const have = new Set([...forms.values()].flatMap((t) => [...placeholders(t)]));
      // A singular may leave out {{count}} ("one day"); every other placeholder must be in both.
      for (const p of want) if (!have.has(p)) problems.push(`${locale}: ${key} lacks {{${p}}}`);
      for (const p of have) if (!want.has(p)) problems.push(`${locale}: ${key} has {{${p}}}, English has not`);
    }
    for (const key of own.keys()) if (!english.has(key)) problems.push(`${locale}: ${key} is not in English`);
  }
  const used = usedKeys(english.keys(), sources);
  for (const key of english.keys()) if (!used.has(key)) problems.push(`unused: ${key}`);
  return problems;
}
