/**
 * Admin → Settings → Languages (docs/features/languages.md#settings): the site's default language,
 * whether a first visit follows the browser's languages, the chat bot's language and whether the
 * chat takes the commands in that language too (the localized aliases, listed). Save sends all four;
 * the site configuration refetches, so a new default shows at once for visitors without a choice.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { toast } from 'react-toastify';
import { LOCALE_NAMES, LOCALES, isLocale, type Locale } from '@kickback/common/i18n/locales';
import { i18nEndpoints, type LanguageSettingsBody } from '@kickback/common/http/i18n';
import { siteEndpoints } from '@kickback/common/http/site';
import { useTranslation } from '../../i18n/i18n';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

function LocaleSelect({ id, value, onChange }: { id: string; value: Locale; onChange(locale: Locale): void }) {
  return (
    <Form.Select
      id={id}
      className="w-auto"
      value={value}
      onChange={(e) => {
        if (isLocale(e.target.value)) onChange(e.target.value);
      }}
    >
      {LOCALES.map((l) => (
        <option key={l} value={l} lang={l}>
          {LOCALE_NAMES[l]}
        </option>
      ))}
    </Form.Select>
  );
}

export default function LanguagesSection() {
  const { t } = useTranslation();
  const query = useEndpointQuery(i18nEndpoints.languageSettings);
  const save = useEndpointMutation(i18nEndpoints.updateLanguages, {
    invalidates: [i18nEndpoints.languageSettings, siteEndpoints.config],
  });
  const [draft, setDraft] = useState<LanguageSettingsBody | null>(null);
  if (!query.data) {
    return (
      <div className="text-center py-4">
        <Spinner animation="border" role="status" aria-label={t('languages.loading')} />
      </div>
    );
  }
  const { aliases, ...saved } = query.data;
  const form = draft ?? saved;
  const dirty = JSON.stringify(form) !== JSON.stringify(saved);
  const set = (change: Partial<LanguageSettingsBody>) => setDraft({ ...form, ...change });
  const chatAliases = aliases.filter((a) => a.locale === form.chat);

  return (
    <section className="kb-card p-3 mb-3" aria-labelledby="kb-settings-languages">
      <h2 className="h5" id="kb-settings-languages">
        {t('languages.title')}
      </h2>
      <p className="text-body-secondary small">{t('languages.intro')}</p>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(
            { body: form },
            {
              onSuccess: (res) => {
                toast.success(res.message);
                setDraft(null);
              },
            },
          );
        }}
      >
        <Form.Group className="mb-3">
          <Form.Label htmlFor="kb-lang-default">{t('languages.siteDefault')}</Form.Label>
          <LocaleSelect
            id="kb-lang-default"
            value={form.siteDefault}
            onChange={(siteDefault) => set({ siteDefault })}
          />
        </Form.Group>
        <Form.Check
          className="mb-3"
          type="switch"
          id="kb-lang-follow"
          label={t('languages.followBrowser')}
          checked={form.followBrowser}
          onChange={(e) => set({ followBrowser: e.target.checked })}
        />
        <Form.Group className="mb-3">
          <Form.Label htmlFor="kb-lang-chat">{t('languages.chat')}</Form.Label>
          <LocaleSelect id="kb-lang-chat" value={form.chat} onChange={(chat) => set({ chat })} />
        </Form.Group>
        <Form.Check
          className="mb-2"
          type="switch"
          id="kb-lang-aliases"
          label={t('languages.chatAliases')}
          checked={form.chatAliases}
          onChange={(e) => set({ chatAliases: e.target.checked })}
        />
        {chatAliases.length > 0 ? (
          <ul className="small text-body-secondary mb-3" aria-label={t('languages.aliasList')}>
            {chatAliases.map((a) => (
              <li key={`${a.locale}:${a.alias}`}>
                <code>{a.alias}</code> → <code>{a.command}</code>
              </li>
            ))}
          </ul>
        ) : (
          <p className="small text-body-secondary mb-3">{t('languages.noAliases')}</p>
        )}
        <Button type="submit" disabled={!dirty || save.isPending}>
          {t('languages.save')}
        </Button>
      </Form>
    </section>
  );
}
