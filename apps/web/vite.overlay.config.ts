/**
 * The OBS overlays' build (overlay.html → src/overlay/main.tsx), run after the site's into the same
 * dist folder. An overlay is a browser source that should load only what it draws, so React is
 * Preact's compatibility layer here (a few KB against react-dom's ~60), with no router and no
 * Bootstrap; the build fails when an overlay needs more than 50 KB gzip of JS before it can draw.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleReport, precompress } from './build-plugins';

export default defineConfig({
  plugins: [
    react(),
    bundleReport({
      section: 'overlays',
      budgetJsKb: 50,
      names: {
        'overlay-page': '/overlay/giveaway',
        'raffle-overlay-page': '/overlay/raffle',
        'hunt-overlay-page': '/overlay/hunt',
        'calls-overlay-page': '/overlay/calls',
        'prediction-overlay-page': '/kick/prediction/overlay',
        'alerts-overlay-page': '/overlay/alerts',
        'goal-overlay-page': '/overlay/goal',
      },
    }),
    precompress(),
  ],
  resolve: {
    alias: [
      { find: /^react$/, replacement: 'preact/compat' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false, // the site's build is already there
    copyPublicDir: false,
    sourcemap: true,
    rolldownOptions: { input: 'overlay.html' },
  },
});
