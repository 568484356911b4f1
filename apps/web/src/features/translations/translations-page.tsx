/**
 * Admin → Translations (docs/features/languages.md#for-translators): every text of the site with its
 * three languages side by side — the web app's catalogues (its bundle) and the server's
 * (`GET /api/admin/translations`) — with a filter over keys and texts and "Missing only" (a key
 * absent in a language that needs it; an empty text is a choice, e.g. a sentence's end).
 */
import { useEffect, useMemo, useState } from 'react';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { LOCALE_NAMES, LOCALES, type Locale } from '@kickback/common/i18n/locales';
import { i18nEndpoints } from '@kickback/common/http/i18n';
import { flatten, type Catalogue } from '../../i18n/catalogue-check';
import { useTranslation } from '../../i18n/i18n';
import { useEndpointQuery } from '../../lib/query';

interface Row {
  id: string;
  namespace: string;
  key: string;
  texts: Partial<Record<Locale, string>>;
}

/** The web's three catalogues, fetched with this page (each language is its own chunk). */
async function webCatalogues(): Promise<Record<Locale, Catalogue>> {
  const [en, es, pt] = await Promise.all([
    import('../../i18n/locales/en.json'),
    import('../../i18n/locales/es.json'),
    import('../../i18n/locales/pt-BR.json'),
  ]);
  return { en: en.default, es: es.default, 'pt-BR': pt.default };
}

/** One row per key of a namespace, its text in each language (absent where a language lacks it). */
export function rowsOf(namespace: string, catalogues: Partial<Record<Locale, Record<string, string>>>): Row[] {
  const keys = new Set(LOCALES.flatMap((l) => Object.keys(catalogues[l] ?? {})));
  return [...keys].sort().map((key) => ({
    id: `${namespace}:${key}`,
    namespace,
    key,
    texts: Object.fromEntries(
      LOCALES.flatMap((l) => (catalogues[l]?.[key] !== undefined ? [[l, catalogues[l][key]]] : [])),
    ),
  }));
}

/** Whether `locale` needs a text for `key`: a plural form only where its plural rules have that form. */
export function needs(locale: Locale, key: string): boolean {
  const form = /_(zero|one|two|few|many|other)$/.exec(key)?.[1];
  return !form || (new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[]).includes(form);
}

export const isMissing = (row: Row) => LOCALES.some((l) => needs(l, row.key) && row.texts[l] === undefined);

export default function TranslationsPage() {
  const { t } = useTranslation();
  const server = useEndpointQuery(i18nEndpoints.translations);
  const [web, setWeb] = useState<Record<Locale, Catalogue> | null>(null);
  const [filter, setFilter] = useState('');
  const [missingOnly, setMissingOnly] = useState(false);
  useEffect(() => {
    void webCatalogues().then(setWeb);
  }, []);

  const rows = useMemo(() => {
    const all: Row[] = [];
    if (web) {
      all.push(
        ...rowsOf(
          'web',
          Object.fromEntries(LOCALES.map((l) => [l, Object.fromEntries(flatten(web[l]))])) as Record<
            Locale,
            Record<string, string>
          >,
        ),
      );
    }
    for (const [namespace, catalogues] of Object.entries(server.data?.namespaces ?? {})) {
      all.push(...rowsOf(`server:${namespace}`, catalogues));
    }
    return all;
  }, [web, server.data]);

  const wanted = filter.trim().toLowerCase();
  const shown = rows.filter(
    (r) =>
      (!missingOnly || isMissing(r)) &&
      (wanted === '' ||
        r.key.toLowerCase().includes(wanted) ||
        Object.values(r.texts).some((text) => text.toLowerCase().includes(wanted))),
  );
  const loading = !web || server.isPending;

  return (
    <section className="container-fluid py-4">
      <h1 className="h3">{t('translations.title')}</h1>
      <p className="text-body-secondary">{t('translations.intro')}</p>
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <Form.Control
          type="search"
          className="w-auto"
          placeholder={t('translations.filter')}
          aria-label={t('translations.filter')}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <Form.Check
          type="switch"
          id="kb-translations-missing"
          label={t('translations.missingOnly')}
          checked={missingOnly}
          onChange={(e) => setMissingOnly(e.target.checked)}
        />
        <span className="small text-body-secondary" aria-live="polite">
          {t('translations.count', { count: shown.length })}
        </span>
      </div>
      {loading ? (
        <Spinner animation="border" role="status" aria-label={t('translations.loading')} />
      ) : (
        <Table responsive size="sm" className="kb-translations align-middle">
          <thead>
            <tr>
              <th scope="col">{t('translations.key')}</th>
              {LOCALES.map((l) => (
                <th scope="col" key={l} lang={l}>
                  {LOCALE_NAMES[l]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.id} data-testid="translation-row">
                <th scope="row" className="small">
                  <span className="text-body-secondary">{r.namespace}</span>
                  <br />
                  <code>{r.key}</code>
                </th>
                {LOCALES.map((l) => (
                  <td key={l} lang={l} className="small">
                    {r.texts[l] !== undefined ? (
                      r.texts[l]
                    ) : needs(l, r.key) ? (
                      <span className="badge text-bg-warning">{t('translations.missing')}</span>
                    ) : (
                      <span className="text-body-secondary" title={t('translations.notNeeded')}>
                        —
                      </span>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
