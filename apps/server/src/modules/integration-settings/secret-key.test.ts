/** The settings key: SECRET_KEY when set; else generated once and reused (data folder or settings row). */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
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
});
