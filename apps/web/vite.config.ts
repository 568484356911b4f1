import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
// By path: the config is bundled for Node, which does not load a workspace package's .ts files.
import { overlayAt } from '../../packages/common/src/overlays';
import { bundleReport, iconModules, precompress, zodWithoutJsonSchema } from './build-plugins';

// In `npm run dev` the API server listens on 3001 and Vite proxies everything that is not the SPA.
const api = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;
const proxied = ['/api', '/auth', '/dev', '/webhooks', '/healthz'];

/** `npm run dev`: the OBS overlays' paths get their own entry, as the server does in production. */
function overlayEntry(): Plugin {
  return {
    name: 'kickback-overlay-entry',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const [pathname = '/', query] = (req.url ?? '/').split('?');
        if (overlayAt(pathname)) req.url = `/overlay.html${query ? `?${query}` : ''}`;
        next();
      });
    },
  };
}

// The site; the OBS overlays are built after it by vite.overlay.config.ts.
export default defineConfig({
  plugins: [
    iconModules(),
    zodWithoutJsonSchema(),
    react(),
    overlayEntry(),
    bundleReport({
      notInEntry: ['zod', 'i18next', 'react-i18next'],
      // docs/benchmarks.md#first-load-budget-per-page
      routeBudget: {
        routesFile: 'src/app/routes.tsx',
        budget: { jsKb: 170, files: 15 },
        // Staff run it on stream in front of viewers: held to the public pages' budget.
        alsoRoutes: ['/giveaway'],
      },
    }),
    precompress(),
  ],
  server: {
    port: 5173,
    proxy: {
      ...Object.fromEntries(proxied.map((p) => [p, { target: api }])),
      '/socket.io': { target: api, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Read by the route budget (build-plugins.ts); under .vite/, which the server does not serve.
    manifest: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What every page needs before it draws (the entry's static imports): one file.
            { name: 'shell', tags: ['$initial'] },
            // zod and the endpoint definitions' helpers, shared by the pages that validate their
            // data: one cached file.
            {
              name: 'zod',
              test: /node_modules[\\/]zod[\\/]|common[\\/]src[\\/]http[\\/](endpoint|strict-int|errors|typed-number)\.ts$/,
            },
            // The Bootstrap parts the pages add (forms, spinners, badges, tables): one small file
            // rather than one per component. Not what positions dropdowns, popovers and tooltips
            // (with its library): only the pages that open one load it.
            {
              name: 'bootstrap-parts',
              test: (id) =>
                /node_modules[\\/](react-bootstrap|@restart[\\/]ui|@restart[\\/]hooks|dom-helpers|warning|uncontrollable)[\\/]/.test(
                  id,
                ) && !/popper|dropdown|overlay|popover|tooltip|rootclose|clickoutside|wrappedref|safestate/i.test(id),
              // What many pages use; the rest stays with the pages that use it.
              minShareCount: 4,
              includeDependenciesRecursively: false,
            },
            // The live pages' connection: hub client and live state.
            {
              name: 'live',
              test: /(src[\\/]lib[\\/](hub|use-live-state)|src[\\/]hubs[\\/](hub|live-state))\.ts$/,
              includeDependenciesRecursively: false,
            },

            {
              name: 'live-game',
              test: /src[\\/](components[\\/]live[\\/](live-game-stage|live-game-toolbar|sounds)|shared[\\/]use-live-game|lib[\\/]live-game-api)\.tsx?$/,
              includeDependenciesRecursively: false,
            },
            // The raffle pages' shared parts.
            {
              name: 'raffles',
              test: /(common[\\/]src[\\/]http[\\/]raffles|features[\\/]raffles[\\/](raffle-facts|use-raffles-hub))\.tsx?$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
