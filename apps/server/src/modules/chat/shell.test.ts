import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { runCommand } from '../../cli/run-command';
import { loadConfig } from '../../config';
import { openDatabase } from '../../db/client';
import { acquireDataDirLock } from '../../db/data-lock';
import { migrate } from '../../db/migrate';
import { chatArgv } from './shell';

const dirs: string[] = [];
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('npm run chat on the embedded database', () => {
  it('posts through the running server that holds the data folder, or through an app of its own', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-chat-'));
    dirs.push(dataDir);
    process.env = { ...saved, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0' };
    const config = loadConfig();

    const lock = await acquireDataDirLock(dataDir);
    const database = await openDatabase({ kind: 'pglite', dataDir });
    await migrate(database);
    const app = await buildApp({ config, database, webDist: null });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const viaServer = await runCommand('chat', chatArgv(['--user', 'shell_fan', '--sub', 'hello', 'server']));
    expect(viaServer).toBe(
      ['shell_fan (subscriber): hello server', '  no linked site user', '  no command'].join('\n'),
    );
    await app.close();
    await database.close();
    lock.release();

    // No server: the CLI builds the app (no listening) and the simulator signs for it.
    const local = await runCommand('chat', chatArgv(['--user', 'shell_fan', '!verify', 'NOPE22']));
    expect(local).toMatch(
      /^shell_fan: !verify NOPE22\n {2}no linked site user\n {2}handled by: verify\n {2}reply: @shell_fan that code is not valid/,
    );
  });
});
