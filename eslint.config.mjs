import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  { ignores: ['node_modules/**', '.next/**', 'dist/**', 'db/migrations/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**', '.data*/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      // A cycle makes load order decide what is undefined at start, and hides which module owns a rule.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The server logs through its one logger (server/log.ts), never straight to the console.
    files: ['server/**/*.ts', 'inngest/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['server/services/**/*.ts'],
    rules: {
      // Business rules stay free of HTTP, tRPC and Next, whichever way the path is spelled.
      'no-restricted-imports': ['error', { patterns: ['@trpc/*', 'trpc-to-openapi', 'node:http', 'http', 'next', 'next/*'] }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server/services',
              from: ['./server/http', './server/trpc', './server/routers', './app'],
              message: 'services hold the rules; the edges (HTTP, tRPC, routers, the dashboard) call them, never the reverse',
            },
          ],
        },
      ],
    },
  },
);
