import i18next from 'eslint-plugin-i18next';
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
  {
    // The dashboard speaks English, Dutch and German (docs/dashboard.md#languages): text a person reads — in JSX or in
    // the attributes that reach the screen or a screen reader — comes from `t`, never a literal.
    files: ['web/dashboard/src/**/*.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': ['error', {
        mode: 'jsx-only',
        'jsx-attributes': { include: ['label', 'placeholder', 'title', 'description', 'aria-label', 'alt', 'error', 'confirmLabel', 'emptyText', 'legend'] },
        // The plugin's own list, plus `can`: `can('bookings', 'write')` in JSX names a permission, not a word people read.
        callees: {
          exclude: ['i18n(ext)?', 't', 'require', 'addEventListener', 'removeEventListener', 'postMessage', 'getElementById', 'dispatch', 'commit', 'includes', 'indexOf', 'endsWith', 'startsWith', 'can'],
        },
      }],
    },
  },
);
