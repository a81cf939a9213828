import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.next/**', 'db/migrations/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**', '.data*/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['server/services/**/*.ts'],
    rules: {
      // Business rules stay free of HTTP and tRPC.
      'no-restricted-imports': ['error', { patterns: ['@trpc/*', 'trpc-to-openapi', 'node:http', 'next', 'next/*'] }],
    },
  },
);
