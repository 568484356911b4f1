#!/usr/bin/env node
// `npm start`: builds the web app and/or the server when its build is missing or older than its
// sources (build-state.mjs), then runs the server (PGlite in ./data, simulators and demo data by default).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleParts } from './build-state.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const stale = staleParts(root);
if (stale) {
  const what = { both: 'the web app and the server', web: 'the web app', server: 'the server' }[stale];
  console.log(`Building ${what}…`);
  const args = stale === 'both' ? ['run', 'build'] : ['run', 'build', '-w', `@kickback/${stale}`];
  const res = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
