import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

export default defineConfig({
  plugins: [
    // File-based routes (src/routes); the generated src/routeTree.gen.ts is committed.
    // autoCodeSplitting keeps each screen's component out of the initial chunk for /.
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/routes',
      generatedRouteTree: './src/routeTree.gen.ts',
      autoCodeSplitting: true,
    }),
    react(),
  ],
  build: { outDir: 'dist/app', emptyOutDir: true, sourcemap: false },
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/static': 'http://127.0.0.1:3000', '/t': 'http://127.0.0.1:3000', '/oidc': 'http://127.0.0.1:3000' } },
});
