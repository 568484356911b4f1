/**
 * Languages (docs/features/languages.md): the settings every process holds in memory
 * (`app.languages`, read by each request's language and by the chat bot), the chat's localized
 * command names, and a viewer's own choice kept on their account.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ChatAlias, LanguageSettings, LanguageSettingsBody } from '@kickback/common/http/i18n';
import type { Locale } from '@kickback/common/i18n/locales';
import { users } from '../../db/schema/users';
import { LANGUAGES_READ, languageSettingsNow } from '../site/service';

/**
 * The built-in chat commands under their names in the other languages
 * (docs/features/languages.md#the-chat-bot): taken, when the admin turns them on, as the command
 * itself. A custom command or an admin's alias of the same name comes first.
 */
export const LOCALIZED_ALIASES: readonly ChatAlias[] = [
  { locale: 'es', alias: 'apostar', command: 'bet' },
  { locale: 'pt-BR', alias: 'aposta', command: 'bet' },
  { locale: 'es', alias: 'puntos', command: 'points' },
  { locale: 'pt-BR', alias: 'pontos', command: 'points' },
  { locale: 'es', alias: 'adivinar', command: 'guess' },
  { locale: 'pt-BR', alias: 'palpite', command: 'guess' },
  { locale: 'es', alias: 'entrar', command: 'enter' },
  { locale: 'pt-BR', alias: 'participar', command: 'enter' },
  { locale: 'es', alias: 'verificar', command: 'verify' },
  { locale: 'pt-BR', alias: 'verificar', command: 'verify' },
  { locale: 'es', alias: 'enlaces', command: 'links' },
];

const aliasTable = new Map(LOCALIZED_ALIASES.map((a) => [a.alias, a.command]));

/** The built-in a localized name stands for while they are on (`apostar` → `bet`), else null. */
export function localizedCommand(app: FastifyInstance, word: string): string | null {
  if (!app.languages.chatAliases) return null;
  return aliasTable.get(word) ?? null;
}

/** The language the chat bot speaks now. */
export const chatLocale = (app: FastifyInstance): Locale => app.languages.chat;

export const withAliases = (body: LanguageSettingsBody): LanguageSettings => ({
  ...body,
  aliases: LOCALIZED_ALIASES.map((a) => ({ ...a })),
});

/** Reads the stored settings into `app.languages` (at start, and after every change in any process). */
export async function loadLanguages(app: FastifyInstance): Promise<void> {
  const now = await languageSettingsNow(app);
  app.languages = { ...now };
}

/** Keeps `app.languages` current: loaded now, and again whenever a change is announced. */
export async function keepLanguagesCurrent(app: FastifyInstance): Promise<void> {
  await loadLanguages(app);
  app.reads.onDrop((prefix) => {
    if (!LANGUAGES_READ.startsWith(prefix)) return;
    loadLanguages(app).catch((err: unknown) => app.log.error({ err }, 'language settings could not be reloaded'));
  });
}

/** Keeps the viewer's own language (null: follow the site) on their account. */
export async function setUserLanguage(app: FastifyInstance, userId: string, language: Locale | null): Promise<void> {
  await app.db.update(users).set({ language }).where(eq(users.id, userId));
  // The short-lived session snapshots carry the row: the next request must see the new language.
  app.sessionCache.evict({ userId });
}
