// Builds the console into dist/: one script and one stylesheet under fixed names (the server
// embeds them and answers with an ETag), no inline script, so the page runs under a
// Content-Security-Policy of script-src 'self'.
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: false,
    reportCompressedSize: false,
    rollupOptions: {
      output: {
        entryFileNames: 'assets/console.js',
        chunkFileNames: 'assets/[name].js',
        assetFileNames: 'assets/console[extname]',
      },
    },
  },
});
