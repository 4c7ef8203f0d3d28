// ESLint for the whole tree: typescript-eslint's recommended rules (syntax only: no type information, so a
// run stays fast on two cores), Svelte's for the renderer, the import boundaries of lint/boundaries.js,
// and eslint-config-prettier last so nothing here argues with the formatter (`npm run format`).
// Type-aware rules were tried: no-floating-promises and no-misused-promises cost 3.6× the CPU on src-main
// (50 s against 14 s) for two findings, neither a live bug, so they stay out.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { defineConfig } from 'eslint/config';
import { boundaryZones } from './lint/boundaries.js';

export default defineConfig(
  {
    // Built output and local scratch (as in .gitignore, which ESLint does not read).
    ignores: [
      'out/',
      'out-base/',
      '.test-build/',
      'dist/',
      'coverage/',
      'bench/results/',
      'test-results/',
      '.model-candidates/',
      '.test-cache/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The house marks a deliberately unused name with a leading underscore (a parameter an interface
      // demands, a key left out of a rest copy).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // A timer read by a closure before the one assignment that sets it cannot be const (TDZ).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Off on purpose: the product strips control characters and terminal escapes from untrusted text
      // (logs, stderr, imported configs), so a control character in a regex here is the point, not a slip.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] } },
    // `{'\n'}` in a <pre> and `placeholder={'a\nb'}` need the mustache for the escape.
    rules: {
      'svelte/no-useless-mustaches': ['error', { ignoreStringEscape: true }],
      // Svelte's own prefer-const knows runes: `let { a } = $props()` and `let b = $derived(...)` stay let.
      'prefer-const': 'off',
      'svelte/prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Resolves each import to its file (`.js` specifiers to the `.ts` beside them), so a boundary is
    // judged on where an import lands, however it is spelled.
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.svelte', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones() }],
      // An import the resolver cannot place is one the boundary rule silently skips: name it instead.
      'import-x/no-unresolved': 'error',
    },
  },
  prettier,
);
