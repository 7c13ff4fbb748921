import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist/app', emptyOutDir: true, sourcemap: false },
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/static': 'http://127.0.0.1:3000', '/t': 'http://127.0.0.1:3000', '/oidc': 'http://127.0.0.1:3000' } },
});
