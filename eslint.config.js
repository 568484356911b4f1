// Lint: typescript-eslint (no `any`), React hooks, boundaries of STYLE.md (common imports no
// app, apps do not import each other, features do not reach into each other), kebab-case files and
// no barrel files. Two small local rules cover the last two.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import path from 'node:path';

const local = {
  rules: {
    'kebab-case-files': {
      meta: { type: 'suggestion', schema: [] },
      create(context) {
        const base = path.basename(context.filename).replace(/\.(test|spec|config|d)?\.?[cm]?[jt]sx?$/, '');
        const name = base.split('.')[0] ?? base;
        if (name && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) {
          context.report({
            loc: { line: 1, column: 0 },
            message: `File names are kebab-case: ${path.basename(context.filename)}`,
          });
        }
        return {};
      },
    },
    'no-barrel-files': {
      meta: { type: 'suggestion', schema: [] },
      create(context) {
        if (/^index\.[cm]?[jt]sx?$/.test(path.basename(context.filename))) {
          context.report({
            loc: { line: 1, column: 0 },
            message: 'No barrel (index) files: import from the module itself.',
          });
        }
        return {};
      },
    },
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      'e2e/screenshots/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { local },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-duplicate-imports': 'error',
      'local/kebab-case-files': 'error',
      'local/no-barrel-files': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/*', '@kickback/server*', '@kickback/web*'],
              message: 'Apps do not import each other; share through @kickback/common.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/**', '@kickback/*', '!@kickback/common'],
              message: '@kickback/common imports nothing from the apps.',
            },
          ],
          paths: [
            { name: 'react', message: 'No React in @kickback/common.' },
            { name: 'fastify', message: 'No Fastify in @kickback/common.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/server/**', '@kickback/server*'],
              message: 'The web app talks to the server over HTTP only.',
            },
          ],
        },
      ],
    },
  },
  {
    // The app shell composes features; a feature never imports another feature.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/server/**'], message: 'The web app talks to the server over HTTP only.' },
            {
              regex: '^\\.\\./(?!\\.\\.)[^/]+/',
              message: 'Features do not import other features; share through components/ui, lib or app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/web/**', '@kickback/web*', 'react', 'react-dom'],
              message: 'The server imports nothing from the web app.',
            },
          ],
        },
      ],
    },
  },
);
