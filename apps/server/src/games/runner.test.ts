/**
 * The runner's reads (`view`) of a game whose definition lets reads share a presentation
 * (`presentCache`): the reads of one saved row share one, a row saved since is presented anew, and
 * so is one read after the sharing time or after a failed presentation.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { GameRunner, type EngineDeps, type GameDefinition } from './runner';

interface Row {
  id: string;
  version: number;
  savedAt: number;
}

function runnerWith(ms: number) {
  let presentations = 0;
  let failNext = false;
  let ownerName = 'Olive';
  const definition = {
    present: async (_db: unknown, row: Row) => {
      presentations += 1;
      await Promise.resolve();
      if (failNext) {
        failNext = false;
        throw new Error('the database is away');
      }
      return { watcher: { id: row.id, version: row.version, owner: ownerName } };
    },
    presentCache: { ms, stamp: (row: Row) => `${row.version}:${row.savedAt}` },
  } as unknown as GameDefinition<never, never, never, Row, never, never>;
  const deps = { db: {} as Db, clock: { now: () => new Date(0) } } as unknown as EngineDeps;
  const runner = new GameRunner(deps, definition);
  return {
    read: (row: Row) => runner.view(row, null) as unknown as Promise<{ version: number; owner: string }>,
    presentations: () => presentations,
    failNext: () => void (failNext = true),
    rename: (name: string) => void (ownerName = name),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('reads of a game whose presentation may be shared', () => {
  it('share one presentation of the same saved row, read at once or one after the other', async () => {
    const r = runnerWith(60_000);
    const row = { id: 'g1', version: 3, savedAt: 1000 };
    const [a, b] = await Promise.all([r.read(row), r.read({ ...row })]);
    await r.read({ ...row });
    expect(a).toMatchObject({ version: 3, serverTime: new Date(0).toISOString() });
    expect(b).toMatchObject({ version: 3 });
    expect(r.presentations()).toBe(1);
    // Another game is its own.
    await r.read({ id: 'g2', version: 3, savedAt: 1000 });
    expect(r.presentations()).toBe(2);
  });

  it('present a row saved since anew: a new version, or the same version saved again', async () => {
    const r = runnerWith(60_000);
    await r.read({ id: 'g1', version: 3, savedAt: 1000 });
    r.rename('Oscar');
    expect(await r.read({ id: 'g1', version: 4, savedAt: 2000 })).toMatchObject({ version: 4, owner: 'Oscar' });
    r.rename('Otto');
    expect(await r.read({ id: 'g1', version: 4, savedAt: 2001 })).toMatchObject({ version: 4, owner: 'Otto' });
    expect(r.presentations()).toBe(3);
  });

  it('present anew once the sharing time is over (a renamed player shows)', async () => {
    const r = runnerWith(30);
    const row = { id: 'g1', version: 3, savedAt: 1000 };
    await r.read(row);
    r.rename('Oscar');
    expect(await r.read(row)).toMatchObject({ owner: 'Olive' });
    await sleep(50);
    expect(await r.read(row)).toMatchObject({ owner: 'Oscar' });
    expect(r.presentations()).toBe(2);
  });

  it('do not keep a failed presentation', async () => {
    const r = runnerWith(60_000);
    const row = { id: 'g1', version: 3, savedAt: 1000 };
    r.failNext();
    await expect(r.read(row)).rejects.toThrow('the database is away');
    expect(await r.read(row)).toMatchObject({ version: 3 });
    expect(r.presentations()).toBe(2);
  });
});
