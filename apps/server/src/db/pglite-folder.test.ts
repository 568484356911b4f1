/**
 * A fresh PGlite folder is made by a child process (initdb's 600 MB of WebAssembly memory leave
 * with it), and the server then opens it like an existing one; an existing folder is opened as is.
 */
import type * as ChildProcess from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from './client';
import { prepareDataDir } from './pglite-folder';

const spawned = vi.hoisted(() => ({ children: [] as string[][] }));
vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof ChildProcess>();
  const spawn = ((command: string, args: string[], options: object) => {
    spawned.children.push([command, ...args]);
    return actual.spawn(command, args, options);
  }) as typeof actual.spawn;
  return { ...actual, spawn };
});

const dir = mkdtempSync(path.join(tmpdir(), 'kb-pglite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the PGlite data folder', () => {
  it('is made by a child process when fresh, then opened here; an existing folder is opened as is', async () => {
    const dataDir = path.join(dir, 'data');
    // What the data-folder lock leaves in it before the database opens.
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, 'stray.txt'), 'x');

    const first = await openDatabase({ kind: 'pglite', dataDir });
    expect(spawned.children).toHaveLength(1);
    expect(spawned.children[0]![0]).toBe(process.execPath);
    expect(spawned.children[0]).toContain(dataDir);
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    await first.execScript("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('here')");
    await first.close();

    expect(await prepareDataDir(dataDir)).toBeNull();
    const again = await openDatabase({ kind: 'pglite', dataDir });
    expect(spawned.children).toHaveLength(1);
    expect(await again.query('SELECT v FROM kept')).toEqual([{ v: 'here' }]);
    await again.close();
  });

  it('says which folder it could not make', async () => {
    const blocked = path.join(dir, 'file-not-folder');
    writeFileSync(blocked, 'x');
    await expect(prepareDataDir(path.join(blocked, 'data'))).rejects.toThrow(
      `Could not create the database in ${path.join(blocked, 'data')}`,
    );
  });
});
