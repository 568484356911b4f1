// Bundles the server (with @kickback/common) into dist/main.js; npm packages stay external.
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  external: [],
  plugins: [
    {
      // Bundle our own workspace package; everything else comes from node_modules at run time.
      name: 'bundle-common',
      setup(b) {
        b.onResolve({ filter: /^@kickback\/common\// }, async (args) => {
          const sub = args.path.slice('@kickback/common/'.length);
          return { path: new URL(`../../packages/common/src/${sub}.ts`, import.meta.url).pathname };
        });
      },
    },
  ],
  logLevel: 'warning',
});
cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
// `npm start` compares the server's sources with this (scripts/build-state.mjs).
writeFileSync('dist/.build-stamp', new Date().toISOString());
console.log('server built: apps/server/dist/main.js');
