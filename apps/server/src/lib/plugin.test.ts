/**
 * The app's plugins say which plugins they need (lib/plugin.ts): a wrong registration order fails
 * at start, naming what is missing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/app';
import { battlesModule } from '../modules/battles/routes';

const src = path.resolve(import.meta.dirname, '..');

/** A plugin of that name that decorates nothing: satisfies a dependency on it by name only. */
const standIn = (name: string) => fp(async () => undefined, { name });

describe('plugin dependencies', () => {
  it('battles, registered before the slot calls they call, fail at start', async () => {
    const app = Fastify();
    for (const name of ['chatModule', 'gamesPlugin', 'realtimePlugin']) app.register(standIn(name));
    app.register(battlesModule);
    await expect(app.ready()).rejects.toThrow(
      "The dependency 'slotCallsModule' of plugin 'battlesModule' is not registered",
    );
    await app.close().catch(() => undefined);
  });

  it('every shared plugin of the server is made by lib/plugin.ts (so it has a name and its dependencies)', () => {
    const files = (readdirSync(src, { recursive: true }) as string[]).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== path.join('lib', 'plugin.ts'),
    );
    const direct = files.filter((f) => /from 'fastify-plugin'/.test(readFileSync(path.join(src, f), 'utf8')));
    expect(direct).toEqual([]);
  });

  it('the app registers every plugin after the ones it needs', async () => {
    const t = await buildTestApp();
    try {
      for (const name of ['sessionPlugin', 'realtimePlugin', 'chatModule', 'slotCallsModule', 'battlesModule'])
        expect(t.app.hasPlugin(name), name).toBe(true);
    } finally {
      await t.close();
    }
  });
});
