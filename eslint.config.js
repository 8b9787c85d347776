// ESLint (flat config): typescript-eslint's recommended rules for our TypeScript, with the rules
// that only concern layout left to Prettier (eslint-config-prettier). `npm run lint`.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Tailcall's JS hooks (bench/tailcall) are called by name from its config, not from our code.
  { ignores: ['node_modules/', 'dist/', 'src/generated/', 'coverage/', 'bench/tailcall/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // Unused names are errors, except those marked unused on purpose with a leading underscore.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // Type-aware rules, for what ships (src/) only: a promise nobody handles is an unhandled rejection,
  // which ends a Node 20 process. They cost ~8-20 s of `eslint .` here (the TypeScript program).
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // All checks, checksVoidReturn included: an async listener given to EventEmitter#on (or any
      // callback whose result is ignored) rejects with no one to catch it. Mark such a callback's
      // body with `void work().catch(log)` instead.
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  prettier,
);
