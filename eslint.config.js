import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.staykit/', 'dist/', 'web/*/dist/', 'bench/results/', 'reports/', '.stryker-tmp/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
);
