import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { staleParts } from './build-state.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function file(root: string, rel: string, at: number) {
  const full = path.join(root, rel);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, 'x');
  utimesSync(full, at / 1000, at / 1000);
  utimesSync(path.dirname(full), at / 1000, at / 1000);
}

it('a fresh build needs nothing; a changed web or server source rebuilds that side; no build builds both', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'kb-build-state-'));
  dirs.push(root);
  expect(staleParts(root)).toBe('both');
  const t = 1_700_000_000_000;
  file(root, 'apps/web/src/main.tsx', t);
  file(root, 'packages/common/src/money.ts', t);
  file(root, 'apps/server/src/main.ts', t);
  file(root, 'apps/web/dist/index.html', t + 1000);
  file(root, 'apps/server/dist/main.js', t + 2000);
  expect(staleParts(root)).toBe('server'); // `npm run build -w web` only: no stamp yet
  file(root, 'apps/server/dist/.build-stamp', t + 2000);
  expect(staleParts(root)).toBeNull(); // what `npm run build` leaves
  file(root, 'apps/server/src/main.ts', t + 3000);
  expect(staleParts(root)).toBe('server');
  file(root, 'apps/server/dist/.build-stamp', t + 4000);
  file(root, 'apps/web/src/main.tsx', t + 5000);
  expect(staleParts(root)).toBe('web');
  file(root, 'packages/common/src/money.ts', t + 6000);
  expect(staleParts(root)).toBe('both');
});
