import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { VitePWA } from 'vite-plugin-pwa';

// Installable PWA (issue 5). The service worker's source is sw/sw.ts (injectManifest): it
// precaches the shell and the player's code — never /api, the tracker (/static, /t) or terser
// (runtime-cached by the worker). Icons are rendered from public/icons/*.svg with Chromium.
// The build id busts the persisted query cache of older builds.
const buildId = process.env.TAPEDECK_BUILD_ID ?? `${Date.now().toString(36)}`;
const LAZY_PACKAGES = ['terser', 'rrweb-player'];
function lazyChunkName(chunk: { name: string; moduleIds: readonly string[]; isDynamicEntry: boolean }): string {
  const lazy = chunk.isDynamicEntry && LAZY_PACKAGES.find((name) => chunk.moduleIds.some((id) => id.includes(`/node_modules/${name}/`)));
  return lazy ? `assets/${lazy}-[hash].js` : 'assets/[name]-[hash].js';
}
const pwa = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'sw',
  filename: 'sw.ts',
  registerType: 'prompt',
  injectRegister: false, // registered by src/offline/UpdatePrompt.tsx (virtual:pwa-register/react)
  includeAssets: ['icons/icon.svg', 'icons/favicon-32.png', 'icons/apple-touch-icon-180.png'],
  manifest: {
    id: '/',
    name: 'Tapedeck — session recording and replay',
    short_name: 'Tapedeck',
    description: "Record your visitors' sessions and watch the replays, even offline.",
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    theme_color: '#4f46e5',
    background_color: '#ffffff',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
    // The richer install dialog (Chrome): the real app, rendered by scripts/manifest-screenshots.ts.
    screenshots: [
      {
        src: '/screenshots/dashboard-wide.png',
        sizes: '1280x800',
        type: 'image/png',
        form_factor: 'wide',
        label: 'Campaign dashboard with the one-line install tag',
      },
      {
        src: '/screenshots/sessions-narrow.png',
        sizes: '390x844',
        type: 'image/png',
        form_factor: 'narrow',
        label: 'Recorded sessions of a campaign on a phone',
      },
    ],
    shortcuts: [
      { name: 'Dashboard', url: '/dashboard', icons: [{ src: '/icons/shortcut-96.png', sizes: '96x96', type: 'image/png' }] },
      { name: 'Create Campaign', url: '/createCampaign', icons: [{ src: '/icons/shortcut-96.png', sizes: '96x96', type: 'image/png' }] },
      { name: 'Saved replays', url: '/saved', icons: [{ src: '/icons/shortcut-96.png', sizes: '96x96', type: 'image/png' }] },
    ],
    // The installed app opens downloaded recordings (Chromium); /saved reads them from window.launchQueue.
    file_handlers: [{ action: '/saved', accept: { 'application/gzip': ['.gz'], 'application/json': ['.json'] } }],
    launch_handler: { client_mode: 'focus-existing' },
  },
  injectManifest: {
    globPatterns: ['**/*.{js,css,html,png,svg,ico,webmanifest,woff2}'],
    // Screenshots are for the install dialog only: never precached.
    // The player's code (rrweb-player, ~70 KB compressed) is kept with the shell, so a recording
    // file or saved replay plays offline on a device that never opened a replay online; terser
    // (script minifying, online only) stays lazy.
    globIgnores: ['**/screenshots/**', '**/static/**', '**/t/**', '**/recorder*.js', '**/magicFormat*.js', '**/terser-*.js'],
  },
});

export default defineConfig({
  plugins: [
    // File-based routes (src/routes); the generated src/routeTree.gen.ts is committed.
    // autoCodeSplitting keeps each screen's component out of the initial chunk for /.
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/routes',
      generatedRouteTree: './src/routeTree.gen.ts',
      autoCodeSplitting: true,
      // The pending views too (the default splits only component, errorComponent and
      // notFoundComponent): a screen's loading view lives in the screen's file, and a route naming
      // it pulled that whole screen into the initial chunk for / (212 KB gzip instead of 202).
      // And the loaders, each a few lines that fetch with the screen's API module (the replay's
      // reading code, the heatmap's, the people's...), which / never runs: 203 KB to 199 with the
      // shared chunk below. A loader's chunk loads beside its screen's, or on intent (hover).
      codeSplittingOptions: { defaultBehavior: [['loader'], ['component'], ['pendingComponent'], ['errorComponent'], ['notFoundComponent']] },
    }),
    react(),
    pwa,
  ],
  define: { 'import.meta.env.VITE_BUILD_ID': JSON.stringify(buildId) },
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    sourcemap: false,
    // Every browser the PWA runs in (its service worker and ES modules already need a modern one)
    // reads <link rel="modulepreload"> itself; the polyfill cost every first load about 350 bytes.
    modulePreload: { polyfill: false },
    // Lazy chunks are named after their package (terser's would be "main"), so the service
    // worker's precache can leave them to runtime caching by name.
    rollupOptions: {
      output: {
        chunkFileNames: lazyChunkName,
        // Few chunks for the first load: the router's and Query's many small shared pieces each as
        // one chunk (every chunk costs its own imports, exports and a gzip stream of its own).
        advancedChunks: {
          groups: [
            { name: 'router', test: /node_modules[\\/]@tanstack[\\/](react-router|router-core|history|store|react-store)[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/ },
            // The small modules every page loads beside the entry (API client, offline store, the
            // player's source, constants) as one chunk, not a dozen of a few hundred bytes each.
            {
              name: 'shared',
              test: /([\\/]src[\\/](api[\\/](client|paths|replayKeys|site)|offline[\\/](network|db)|lib[\\/](replayUrls|sessionFilters|liveFeed)|components[\\/]replay[\\/]moment|replay[\\/]replaySource)|[\\/]common[\\/](limits|insights|session-list|devices|captured|ids|held-batches)|node_modules[\\/]idb[\\/])/,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/static': 'http://127.0.0.1:3000', '/t': 'http://127.0.0.1:3000', '/oidc': 'http://127.0.0.1:3000' } },
});
