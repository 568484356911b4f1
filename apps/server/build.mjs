// Bundles the server (with @kickback/common) into dist/main.js; npm packages stay external.
// SERVER_BUILD_DIR builds elsewhere (the rolling-restart test bundles its own copy, under
// node_modules/.cache, so it starts processes quickly without touching dist/).
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const outdir = process.env.SERVER_BUILD_DIR || 'dist';
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/main.ts' },
  outdir,
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
cpSync('src/db/migrations', path.join(outdir, 'migrations'), { recursive: true });
// `npm start` compares the server's sources with this (scripts/build-state.mjs).
writeFileSync(path.join(outdir, '.build-stamp'), new Date().toISOString());
console.log(`server built: apps/server/${outdir}/main.js`);
