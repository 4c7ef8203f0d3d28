import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

/** A slow shared build machine made Rolldown print plugin-timing advice into `npm run demo`: it is noise there. */
const quiet = { checks: { bundlerTimings: false } };

export default defineConfig({
  main: {
    build: { rollupOptions: { ...quiet, input: { index: resolve(__dirname, 'src-main/desktop/main.ts') } } },
  },
  preload: {
    // A sandboxed preload must be CommonJS.
    build: { rollupOptions: { ...quiet, input: { index: resolve(__dirname, 'src-main/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } } },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [svelte()],
    build: { rollupOptions: { ...quiet, input: { index: resolve(__dirname, 'src-renderer/index.html') } } },
  },
});
