import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API serves web/dist under `npm start`; in development Vite proxies /api to it.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
});
