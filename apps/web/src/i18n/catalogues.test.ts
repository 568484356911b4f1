/**
 * The web catalogues are complete and in use (docs/features/languages.md#for-translators): run by
 * `npm test`, it fails on a key missing in any language, a key no code uses, or a placeholder in
 * one language and not another.
 */
// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@kickback/common/i18n/locales';
import { catalogueProblems, type Catalogue } from './catalogue-check';
import en from './locales/en.json';
import es from './locales/es.json';
import ptBR from './locales/pt-BR.json';

const catalogues: Record<Locale, Catalogue> = { en, es, 'pt-BR': ptBR };

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'locales' ? [] : sourcesUnder(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [readFileSync(file, 'utf8')] : [];
  });
}

describe('web catalogues', () => {
  it('have every key in every language, use every key, and keep the placeholders', () => {
    expect(catalogueProblems(catalogues, sourcesUnder(path.resolve(import.meta.dirname, '..')))).toEqual([]);
  });

  it('catch a missing key, a missing plural form, an unused key and a lost placeholder', () => {
    const en = { a: { greet: 'Hi {{name}}', left_one: '{{count}} left', left_other: '{{count}} left', spare: 'x' } };
    const es = { a: { greet: 'Hola', left_one: 'Queda {{count}}', left_other: 'Quedan {{count}}' } };
    const pt = {
      a: { greet: 'Olá {{name}}', left_one: '{{count}}', left_many: '{{count}}', left_other: '{{count}}', extra: 'y' },
    };
    const problems = catalogueProblems({ en, es, 'pt-BR': pt }, ["t('a.greet'); t('a.left', { count })"]);
    expect(problems).toEqual([
      'es: a.greet lacks {{name}}',
      'es: missing a.left_many',
      'es: missing a.spare',
      'pt-BR: missing a.spare',
      'pt-BR: a.extra is not in English',
      'unused: a.spare',
    ]);
  });
});
