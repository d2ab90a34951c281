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
  {
    // No barrels (docs/design.md#module-faces): a module is imported from the file that defines it, so what a file
    // depends on is what it names, and a folder's face is its files' exports, not a second list kept beside them.
    files: ['src/**/*.ts', 'web/*/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error',
        { selector: 'ExportAllDeclaration', message: 'Staykit has no barrels: import from the file that defines it (docs/design.md#module-faces).' },
        { selector: 'ExportNamedDeclaration[source]', message: 'Staykit has no barrels: import from the file that defines it (docs/design.md#module-faces).' },
      ],
    },
  },
);
