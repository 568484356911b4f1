#!/usr/bin/env node
/**
 * Sums up a V8 CPU profile (`node --cpu-prof`): the functions with the most self time, the
 * functions with the most inclusive time (each counted once per stack), and self time per package.
 * With `--requests N` every figure is also given in µs per request.
 *
 *   node bench/lib/profile-summary.mjs <file.cpuprofile> [--requests N] [--top 40] [--match text]
 *     [--window from,to]
 *
 * `--match text` lists only functions whose name or file contains the text (inclusive table);
 * `--window 12,22` counts only the samples between 12 s and 22 s after the profile started (the
 * busy seconds are printed first, to find the load's window).
 */
import { readFileSync } from 'node:fs';

const [file, ...rest] = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : fallback;
};
const requests = Number(opt('requests', '0'));
const top = Number(opt('top', '40'));
const match = opt('match', '');
const profile = JSON.parse(readFileSync(file, 'utf8'));

const [from, to] = opt('window', '0,1e9')
  .split(',')
  .map((s) => Number(s) * 1e6);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
const dt = new Map(); // node id → self µs
const busyPerSecond = [];
let at = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  const delta = profile.timeDeltas[i + 1] ?? 0;
  at += profile.timeDeltas[i] ?? 0;
  if (!idle.has(id)) busyPerSecond[Math.floor(at / 1e6)] = (busyPerSecond[Math.floor(at / 1e6)] ?? 0) + delta;
  if (at < from || at >= to) continue;
  dt.set(id, (dt.get(id) ?? 0) + delta);
}
console.log(
  'busy ms per second: ' + Array.from(busyPerSecond, (v, i) => `${i}:${Math.round((v ?? 0) / 1000)}`).join(' '),
);
const total = [...dt.values()].reduce((a, b) => a + b, 0);

function keyOf(node) {
  const f = node.callFrame;
  const url = f.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '~/');
  return `${f.functionName || '(anonymous)'} ${url.split('/').slice(-3).join('/')}:${f.lineNumber + 1}`;
}
function packageOf(node) {
  const url = node.callFrame.url;
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  if (url.includes('/apps/server/')) return 'app';
  if (url === '') return node.callFrame.functionName || '(native)';
  return url.split('/').slice(-2).join('/');
}

const self = new Map();
const inclusive = new Map();
const perPackage = new Map();
function walk(node, onStack) {
  const key = keyOf(node);
  const own = dt.get(node.id) ?? 0;
  self.set(key, (self.get(key) ?? 0) + own);
  const pkg = packageOf(node);
  perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + own);
  let sum = own;
  const added = !onStack.has(key);
  if (added) onStack.add(key);
  for (const child of node.children ?? []) sum += walk(byId.get(child), onStack);
  if (added) {
    onStack.delete(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + sum);
  }
  return sum;
}
walk(profile.nodes[0], new Set());

const fmt = (us) =>
  `${(us / 1000).toFixed(1).padStart(9)} ms ${((us / total) * 100).toFixed(1).padStart(5)} %` +
  (requests > 0 ? ` ${(us / requests).toFixed(2).padStart(7)} µs/req` : '');
const show = (title, map, filter = () => true) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...map]
    .filter(([k]) => filter(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`${fmt(v)}  ${k}`);
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled${requests ? `, ${requests} requests` : ''}`);
show('Self time by package', perPackage);
show('Self time by function', self);
show('Inclusive time by function', inclusive, (k) => !match || k.includes(match));
