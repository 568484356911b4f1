#!/usr/bin/env node
// Runs the browser tests when Chromium is there. Outside CI a missing browser skips them (and says
// so); in CI (CI set) it is an error.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  if (process.env.CI) {
    console.error(`Browser tests need Chromium at ${chromium} (apt-get install -y chromium).`);
    process.exit(1);
  }
  console.log(`Browser tests SKIPPED: no Chromium at ${chromium}. Install it with: apt-get install -y chromium`);
  process.exit(0);
}
const res = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(res.status ?? 1);
