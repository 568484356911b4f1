/**
 * `app.credentials`: the one place the adapters (Kick app and bot, Discord OAuth and bot, partner
 * fetchers) read their credentials from — the environment with the site's saved settings under it
 * (config.ts `integrationsWith`). A save invalidates the `integration-settings` read key after its
 * commit; every process hears it (lib/read-cache-sync.ts with Redis) and reloads. A listening
 * process also compares the row's stamp every few seconds, so a change reaches a process that
 * missed the message (no Redis, an outage) too.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { ConfigError, integrationsWith, type Config } from '../../config';
import { SecretBox } from '../../lib/secret-box';
import { loadSecretKey, type SecretKey } from './secret-key';
import { integrationSettingsStamp, readIntegrationSettings, type PlainSettings } from './store';

export const CREDENTIALS_READ = 'integration-settings';
const POLL_MS = 5000;

type Parts = Pick<Config, 'partners' | 'kick' | 'discord'>;

declare module 'fastify' {
  interface FastifyInstance {
    credentials: Credentials;
  }
}

export class Credentials {
  private parts: Parts;
  private stored: PlainSettings = {};
  private unopened: readonly string[] = [];
  private stamp: string | null = null;
  private loading: Promise<void> | null = null;
  private again = false;
  private readonly listeners: Array<() => void> = [];
  readonly box: SecretBox;

  constructor(
    private readonly app: FastifyInstance,
    readonly secretKey: SecretKey,
  ) {
    this.box = new SecretBox(secretKey.key);
    const { kick, discord, partners } = app.config;
    this.parts = { kick, discord, partners };
  }

  /** The current configuration; the same object until the credentials change (adapters compare it). */
  kick(): Config['kick'] {
    return this.parts.kick;
  }
  discord(): Config['discord'] {
    return this.parts.discord;
  }
  partners(): Config['partners'] {
    return this.parts.partners;
  }
  /** The values saved on the site (opened), by variable name. */
  saved(): PlainSettings {
    return this.stored;
  }
  /** The saved values that do not open with this server's key (another or a lost SECRET_KEY), by variable name. */
  unreadable(): readonly string[] {
    return this.unopened;
  }
  /** Called after the credentials changed (a save here or on another process). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Reads the saved settings again; concurrent calls share one read (and one more after it). */
  reload(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      try {
        do {
          this.again = false;
          await this.load();
        } while (this.again);
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  /** Reloads when the row changed since the last read (the fallback of a missed message). */
  async check(): Promise<void> {
    if ((await integrationSettingsStamp(this.app.db)) !== this.stamp) await this.reload();
  }

  private async load(): Promise<void> {
    const stamp = await integrationSettingsStamp(this.app.db);
    const { values, unreadable } = await readIntegrationSettings(this.app.db, this.box);
    if (unreadable.length > 0) {
      this.app.log.error(
        { fields: unreadable, key: this.secretKey.where },
        'integration settings saved on the site do not open with this key (another SECRET_KEY?): they are ignored',
      );
    }
    let parts: Parts;
    try {
      parts = integrationsWith(this.app.config, values);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      this.app.log.error({ err: err.message }, 'integration settings saved on the site are ignored');
      const { kick, discord, partners } = this.app.config;
      parts = { kick, discord, partners };
    }
    const changed = JSON.stringify(parts) !== JSON.stringify(this.parts);
    // Kept as they are when nothing changed: the adapters rebuild only on a new object.
    if (changed) this.parts = parts;
    this.stored = values;
    this.unopened = unreadable;
    this.stamp = stamp;
    if (changed) {
      for (const listener of this.listeners) {
        try {
          listener();
        } catch (err) {
          this.app.log.error({ err }, 'integration settings change listener failed');
        }
      }
    }
  }
}

export const credentialsPlugin = plugin({
  name: 'credentialsPlugin',
  dependencies: ['cachedReadsPlugin'],
})(async (app: FastifyInstance) => {
  const credentials = new Credentials(app, await loadSecretKey(app.config, app.db));
  await credentials.reload();
  app.decorate('credentials', credentials);
  app.reads.onDrop((prefix) => {
    if (!CREDENTIALS_READ.startsWith(prefix)) return;
    credentials.reload().catch((err: unknown) => app.log.error({ err }, 'integration settings could not be reloaded'));
  });
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onListen', async () => {
    timer = setInterval(() => {
      credentials.check().catch((err: unknown) => app.log.warn({ err }, 'integration settings check failed'));
    }, POLL_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
  });
});
