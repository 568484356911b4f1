/** The settings key: SECRET_KEY when set; else generated once and reused (data folder or settings row). */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import type { IntegrationSettingsView } from '@kickback/common/http/integration-settings';
import { goLiveChecklist } from '../integrations/go-live';
import { loadSecretKey, SECRET_KEY_FILE } from './secret-key';

let t: TestApp;
let dir = '';
afterEach(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

describe('the integration settings key', () => {
  it('is SECRET_KEY when set', async () => {
    t = await buildTestApp({ env: { SECRET_KEY: 'k'.repeat(40) } });
    expect(t.app.credentials.secretKey).toMatchObject({ key: 'k'.repeat(40), source: 'SECRET_KEY' });
  });

  it('without it, one generated key in the PGlite data folder (0600), the same at every start', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kb-key-'));
    t = await buildTestApp();
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, DATA_DIR: dir });
    const [a, b] = await Promise.all([loadSecretKey(config, t.app.db), loadSecretKey(config, t.app.db)]);
    expect(a).toEqual(b);
    expect(a.source).toBe('data folder');
    expect(a.key.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, SECRET_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await loadSecretKey(config, t.app.db)).toEqual(a);
  });

  it('on a database (PostgreSQL, in-memory PGlite): one settings row every process reads', async () => {
    t = await buildTestApp();
    const other = await buildTestApp({ database: t.database as TestApp['database'] & { drop(): Promise<void> } });
    try {
      expect(t.app.credentials.secretKey.source).toBe('database');
      expect(other.app.credentials.secretKey.key).toBe(t.app.credentials.secretKey.key);
    } finally {
      await other.close();
    }
  });

  it('keys saved under another SECRET_KEY are said unreadable, on the settings page and on Go live', async () => {
    t = await buildTestApp({ env: { SECRET_KEY: 'a'.repeat(40) } });
    const admin = await t.signIn({ role: 'Admin' });
    const url = '/api/admin/settings/integrations';
    expect(
      (await t.call({ method: 'PUT', url, as: admin, body: { HOWL_API_KEY: 'howl-key-1234567' } })).statusCode,
    ).toBe(200);
    const secretOf = async (app: TestApp) =>
      (await goLiveChecklist(app.app)).sections.flatMap((s) => s.items).find((i) => i.id === 'secretKey');
    expect(await secretOf(t)).toMatchObject({ state: 'ready' });
    // The same database, started with another key (a changed or lost SECRET_KEY).
    const other = await buildTestApp({
      env: { SECRET_KEY: 'b'.repeat(40) },
      database: t.database as TestApp['database'] & { drop(): Promise<void> },
    });
    try {
      const view = (await other.call({ url, as: admin })).json() as IntegrationSettingsView;
      expect(view.fields.find((f) => f.name === 'HOWL_API_KEY')).toMatchObject({ source: 'unreadable', shown: null });
      expect(view.fields.find((f) => f.name === 'CLASH_API_KEY')).toMatchObject({ source: 'none' });
      expect(await secretOf(other)).toMatchObject({
        state: 'todo',
        detail: expect.stringContaining('HOWL_API_KEY'),
      });
    } finally {
      await other.close();
    }
  });
});
