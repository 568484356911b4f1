/**
 * The languages module (docs/features/languages.md#settings): a viewer's own language, the admin's
 * language settings (audited), the server's catalogues for the translator page, and the in-memory
 * settings each request and the chat bot read.
 */
import type { FastifyInstance } from 'fastify';
import { i18nEndpoints } from '@kickback/common/http/i18n';
import { LOCALE_COOKIE } from '@kickback/common/i18n/locales';
import { resolveLocale, serverCatalogues, t } from '../../lib/i18n';
import { plugin } from '../../lib/plugin';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { languageSettingsNow, updateLanguages } from '../site/service';
import { keepLanguagesCurrent, loadLanguages, setUserLanguage, withAliases } from './service';

export const languagesModule = plugin({
  name: 'languagesModule',
  dependencies: ['localePlugin'],
})(async (app: FastifyInstance) => {
  await keepLanguagesCurrent(app);

  route(app, i18nEndpoints.setMyLanguage, async (request, reply) => {
    const user = currentUser(request);
    const { language } = request.body;
    await setUserLanguage(app, user.id, language);
    reply.header('cache-control', 'no-store');
    // Said in the language now chosen (or, back to following the site, the one that now applies).
    const now = resolveLocale(
      language,
      request.cookies[LOCALE_COOKIE],
      request.headers['accept-language'],
      app.languages,
    );
    return { message: t(now, 'languages:saved'), language };
  });

  route(app, i18nEndpoints.languageSettings, async () => withAliases(await languageSettingsNow(app)));

  route(app, i18nEndpoints.updateLanguages, async (request) => {
    const settings = await updateLanguages(app, currentUser(request), request.body);
    // This process at once; the others when the change reaches them (keepLanguagesCurrent).
    await loadLanguages(app);
    request.log.info(settings, 'language settings updated');
    return { message: request.t('common:settingsUpdated'), settings: withAliases(settings) };
  });

  route(app, i18nEndpoints.translations, async () => ({ namespaces: catalogueNamespaces }));
});

/** The catalogues by namespace then language, as the translator page reads them. */
const catalogueNamespaces = Object.fromEntries(
  Object.keys(serverCatalogues.en).map((ns) => [
    ns,
    {
      en: serverCatalogues.en[ns] ?? {},
      es: serverCatalogues.es[ns] ?? {},
      'pt-BR': serverCatalogues['pt-BR'][ns] ?? {},
    },
  ]),
);
