/** What Admin → Settings → Integrations shows: each field's source and value, secrets as "set · last 4". */
import type { FastifyInstance } from 'fastify';
import {
  integrationSettingFields,
  integrationSettingNames,
  lastFour,
  type IntegrationSettingsView,
} from '@kickback/common/http/integration-settings';

export function integrationSettingsView(app: FastifyInstance): IntegrationSettingsView {
  const { config, credentials } = app;
  const saved = credentials.saved();
  const unreadable = credentials.unreadable();
  const fields = integrationSettingNames.map((name) => {
    const { group, label, secret } = integrationSettingFields[name];
    const fromEnv = config.source[name]?.trim() || undefined;
    const value = fromEnv ?? saved[name];
    return {
      name,
      group,
      label,
      secret,
      source: fromEnv
        ? ('env' as const)
        : value !== undefined
          ? ('site' as const)
          : unreadable.includes(name)
            ? ('unreadable' as const)
            : ('none' as const),
      shown: value === undefined ? null : secret ? lastFour(value) : value,
    };
  });
  const bot = credentials.kick().bot;
  return {
    fields,
    secretKey: { source: credentials.secretKey.source, where: credentials.secretKey.where },
    otherKeys: [
      {
        name: 'CODE_ENCRYPTION_KEY',
        state: config.codeKeySet
          ? 'set by the server environment'
          : config.codeKey
            ? 'derived from SESSION_SECRET (development only)'
            : 'not set',
      },
      {
        name: 'KICK_TOKEN_KEY',
        state:
          bot.mode === 'off'
            ? config.source.KICK_TOKEN_KEY
              ? 'set by the server environment'
              : 'not set'
            : bot.tokenKeySource === 'KICK_TOKEN_KEY'
              ? 'set by the server environment'
              : (bot.tokenKeySource ?? 'not set'),
      },
    ],
  };
}
