import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
// By path: the config is bundled for Node, which does not load a workspace package's .ts files.
import { overlayAt } from '../../packages/common/src/overlays';
import { bundleReport, precompress } from './build-plugins';

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
  plugins: [react(), overlayEntry(), bundleReport({ notInEntry: ['zod'] }), precompress()],
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
    chunkSizeWarningLimit: 900,
  },
});
