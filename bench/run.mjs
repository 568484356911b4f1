#!/usr/bin/env node
// `npm run bench -- <name> [args]`: runs bench/<name>.ts with tsx.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const [name, ...args] = process.argv.slice(2);
const available = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));
if (!name || !existsSync(new URL(`./${name}.ts`, import.meta.url))) {
  console.log(`Usage: npm run bench -- <name>\nAvailable: ${available.join(', ') || '(none yet)'}`);
  process.exit(name ? 1 : 0);
}
const res = spawnSync('npx', ['tsx', `${name}.ts`, ...args], { stdio: 'inherit', cwd: new URL('.', import.meta.url) });
process.exit(res.status ?? 1);
