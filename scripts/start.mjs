#!/usr/bin/env node
// `npm start`: builds the web app and the server when a build is missing or older than the
// sources, then runs the server (PGlite in ./data, simulators and demo data by default).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'apps/server/dist/.build-stamp');
const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'packages/common/src', 'apps/server/src'];

function newest(target) {
  const full = path.join(root, target);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of readdirSync(full)) max = Math.max(max, newest(path.join(target, entry)));
  return max;
}

const built =
  existsSync(stamp) &&
  existsSync(path.join(root, 'apps/web/dist/index.html')) &&
  existsSync(path.join(root, 'apps/server/dist/main.js'));
if (!built || Math.max(...sources.map(newest)) > statSync(stamp).mtimeMs) {
  console.log('Building the web app and the server…');
  const res = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
  writeFileSync(stamp, new Date().toISOString());
}

const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
