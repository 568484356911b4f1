import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleReport, precompress } from './build-plugins';

// In `npm run dev` the API server listens on 3001 and Vite proxies everything that is not the SPA.
const api = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;
const proxied = ['/api', '/auth', '/dev', '/webhooks', '/healthz'];

export default defineConfig({
  plugins: [react(), bundleReport(), precompress()],
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
