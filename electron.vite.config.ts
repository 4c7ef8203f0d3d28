import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

export default defineConfig({
  main: {
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src-main/desktop/main.ts') } } },
  },
  preload: {
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src-main/preload/index.ts') } } },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [svelte()],
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } } },
  },
});
