// Whether `npm start` must build: the web app is stale when its sources (or the shared package)
// are newer than apps/web/dist/index.html, the server when its sources are newer than the stamp
// its build writes (apps/server/dist/.build-stamp). So `npm run build` then `npm start` starts at
// once, and editing either side rebuilds.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const webSources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'packages/common/src'];
export const serverSources = ['apps/server/src', 'packages/common/src'];
export const webBuilt = 'apps/web/dist/index.html';
export const serverStamp = 'apps/server/dist/.build-stamp';

function newest(root, target) {
  const full = path.join(root, target);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of readdirSync(full)) max = Math.max(max, newest(root, path.join(target, entry)));
  return max;
}

function builtAt(root, file) {
  const full = path.join(root, file);
  return existsSync(full) ? statSync(full).mtimeMs : null;
}

/** 'web' / 'server' / 'both' when that part needs building, null when everything is current. */
export function staleParts(root) {
  const web = builtAt(root, webBuilt);
  const server = existsSync(path.join(root, 'apps/server/dist/main.js')) ? builtAt(root, serverStamp) : null;
  const webStale = web === null || Math.max(...webSources.map((s) => newest(root, s))) > web;
  const serverStale = server === null || Math.max(...serverSources.map((s) => newest(root, s))) > server;
  if (webStale && serverStale) return 'both';
  return webStale ? 'web' : serverStale ? 'server' : null;
}
