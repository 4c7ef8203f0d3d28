import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { Plugin } from 'vite';
import { buildCli } from './scripts/cliBundle';

/** A slow shared build machine made Rolldown print plugin-timing advice into `npm run demo`: it is noise there. */
const quiet = { checks: { bundlerTimings: false } };

/** After the main build: the `mws` CLI, which bin/mws.js runs (scripts/cliBundle.ts). */
function cli(): Plugin {
  return {
    name: 'mws-cli',
    writeBundle(options) {
      buildCli(options.dir ?? resolve(__dirname, 'out/main'));
    },
  };
}

export default defineConfig({
  main: {
    plugins: [cli()],
    build: {
      // Bundled rather than loaded from node_modules: the SDK and zod are hundreds of small ES modules,
      // and compiling them one by one was most of the desktop core's start (docs/research/measured.md).
      // One zod for the SDK and the core. (The CLI's bundle carries them too: scripts/cliBundle.ts.)
      externalizeDeps: {
        exclude: [
          'zod',
          '@modelcontextprotocol/client',
          '@modelcontextprotocol/server',
          '@modelcontextprotocol/node',
          '@modelcontextprotocol/core',
        ],
      },
      rollupOptions: {
        ...quiet,
        // The desktop app; the `mws` CLI (headless core included) comes out of the same build through
        // the plugin above, so nothing compiles TypeScript at run time.
        input: { index: resolve(__dirname, 'src-main/desktop/main.ts') },
        // Shared chunks sit beside the entries, not in a sub-folder: paths the core resolves from
        // import.meta.url (the window's files in out/renderer) stay one folder below out/.
        output: {
          chunkFileNames: '[name]-[hash].js',
          // Every chunk ASCII, without JSDoc: V8 keeps each module's source for lazy compiling, and one
          // character past Latin-1 (an em dash in a message) stores the whole file at two bytes a character.
          charset: 'ascii',
          comments: { legal: true, annotation: false, jsdoc: false },
        },
      },
    },
  },
  preload: {
    // A sandboxed preload must be CommonJS.
    build: {
      rollupOptions: {
        ...quiet,
        input: { index: resolve(__dirname, 'src-main/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [svelte()],
    build: { rollupOptions: { ...quiet, input: { index: resolve(__dirname, 'src-renderer/index.html') } } },
  },
});
