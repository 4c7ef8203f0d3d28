import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

export default defineConfig({
  main: {
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src-main/desktop/main.ts') } } },
  },
  preload: {
    // A sandboxed preload must be CommonJS.
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src-main/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } } },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [svelte()],
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } } },
  },
});
