import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { acquireDataDirLock } from '../db/data-lock';
import { migrate } from '../db/migrate';
import { upsertSteamUser } from '../modules/auth/user-accounts';
import { runCommand } from './run-command';

const dirs: string[] = [];
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('shell commands on the embedded database', () => {
  it('go through the running server that holds the data folder, and open it themselves when none does', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-cli-'));
    dirs.push(dataDir);
    process.env = { ...saved, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0' };
    const config = loadConfig();

    // A server holds the folder: the command must reach it over the loopback control endpoint.
    const lock = await acquireDataDirLock(dataDir);
    const database = await openDatabase({ kind: 'pglite', dataDir });
    await migrate(database);
    const app = await buildApp({ config, database, webDist: null });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const user = await upsertSteamUser(database.db, '76561198000000077', null, [], new Date());
    expect(await runCommand('grant', { steamId: user.steamId })).toMatch(/is now Admin/);
    await app.close();
    await database.close();
    lock.release();

    // No server: the command opens the database itself (and sees the change the server made).
    expect(await runCommand('revoke', { steamId: user.steamId })).toMatch(/is now User/);
    expect(await runCommand('revoke', { steamId: user.steamId })).toMatch(/already User/);
  });
});
