// Lint: typescript-eslint (no `any`), React hooks, boundaries of
// docs/conventions.md#rule-10-boundaries-enforced-by-lint (common imports no app, apps do not
// import each other, web features do not reach into each other, the server's layers run one way and
// its modules meet only through each other's service.ts), kebab-case files and no barrel files. The
// boundaries are zones of import-x's no-restricted-paths, checked on the imported file's resolved
// path, so no spelling of an import (`../../modules/x/…` from any depth, `./../x/…`) gets past
// them. Two small local rules cover the last two. Import cycles are found by scripts/import-cycles.test.ts
// (type-only imports count too, which lint rules skip).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';
import fs from 'node:fs';
import path from 'node:path';

// The server's layers (docs/conventions.md#rule-10-boundaries-enforced-by-lint), top to bottom:
//   main.ts, cli/ → app.ts → modules/ → games/, plugins/, integrations/ → lib/, db/, config.ts
// An import may go down, never up. The three middle layers do not import each other, except that a
// game (the engine) emits through the real-time plugin: a mechanism is registered into by its users
// and never imports them. Zones are checked on resolved paths, so `../../modules/x` from any depth
// counts. Tests are exempt: they build the whole app (rule 11).
const server = 'apps/server/src';
const inServer = (...names) => names.map((n) => `${server}/${n}`);
const serverLayerZones = [
  {
    target: inServer('lib/**', 'db/**', 'config.ts'),
    from: inServer('modules', 'games', 'plugins', 'integrations', 'cli', 'app.ts', 'main.ts'),
    message: 'lib, db and config are the bottom layer: they import no module, game, plugin, integration or app.',
  },
  {
    target: inServer('plugins/**'),
    from: inServer('modules', 'games', 'integrations', 'cli', 'app.ts', 'main.ts'),
    message:
      'A plugin is a mechanism features register into: it imports lib and db only (put what it shares with modules in lib).',
  },
  {
    target: inServer('integrations/**'),
    from: inServer('modules', 'games', 'plugins', 'cli', 'app.ts', 'main.ts'),
    message: 'An integration talks to the outside world and imports lib and db only; the modules call it.',
  },
  {
    target: inServer('games/**'),
    from: inServer('modules', 'integrations', 'cli', 'app.ts', 'main.ts'),
    message: 'The game engine imports plugins, lib and db; games register into it from their modules.',
  },
  {
    target: inServer('modules/**'),
    from: inServer('cli', 'app.ts', 'main.ts'),
    message: 'Modules do not import the app that composes them.',
  },
  {
    target: inServer('app.ts'),
    from: inServer('cli', 'main.ts'),
    message: 'app.ts builds the app; main.ts and the CLI start it.',
  },
  {
    target: inServer('**'),
    from: 'apps/server/test',
    message: 'The server never imports its test helpers (apps/server/test); only tests, bench/ and scripts/ do.',
  },
];

// The web app's layers, top to bottom: main.tsx, app/ (router, layout, providers) → features/ →
// shared/ (what the shell provides and every feature reads: sign-in, site config, the profile
// modal, known routes) → components/ (shared presentational pieces) → lib/ (the API and hub
// clients, shared hooks) → i18n/ (the language runtime and catalogues). An import may go down, never up; features do not import each other
// (below). Proved by apps/web/src/layers.test.ts.
const web = 'apps/web/src';
const inWeb = (...names) => names.map((n) => `${web}/${n}`);
const webLayerZones = [
  {
    target: inWeb('i18n/**'),
    from: inWeb('lib', 'app', 'features', 'shared', 'components', 'main.tsx'),
    message:
      'i18n (the language runtime and catalogues, docs/features/languages.md) is below lib: it imports none of the app.',
  },
  {
    target: inWeb('lib/**'),
    from: inWeb('app', 'features', 'shared', 'components', 'main.tsx'),
    message: 'lib is the bottom of the web app: it imports no component, shared context, feature or app shell.',
  },
  {
    target: inWeb('components/**'),
    from: inWeb('app', 'features', 'shared', 'main.tsx'),
    message:
      'Shared components are presentational: they import lib only, never a feature, shared context or the app shell.',
  },
  {
    target: inWeb('shared/**'),
    from: inWeb('app', 'features', 'main.tsx'),
    message: 'shared/ holds what every feature reads: it imports components and lib, never a feature or the app shell.',
  },
  {
    target: inWeb('features/**'),
    from: inWeb('app', 'main.tsx'),
    message: 'A feature does not import the app shell; what it needs from it lives in shared/.',
  },
];

const serverNotWeb = {
  group: ['**/apps/web/**', '@kickback/web*', 'react', 'react-dom'],
  message: 'The server imports nothing from the web app.',
};
const here = (p) => path.join(import.meta.dirname, p);
const dirsIn = (dir) =>
  fs
    .readdirSync(here(dir), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

// A module's public surface is its service.ts. Two collectors read one more file of each module:
// modules/shell its shell.ts (operator commands), modules/demo its demo.ts (demo data). One zone per
// module: every other module's files are out of bounds but their public ones (globs matched against
// the resolved absolute path, as the rule wants for exceptions of a glob zone).
const alsoPublicFor = { shell: ['shell'], demo: ['demo'] };
const moduleZones = dirsIn(`${server}/modules`).map((name) => {
  const publicFiles = ['service', ...(alsoPublicFor[name] ?? [])];
  const also = publicFiles.slice(1).map((f) => `${f}.ts`);
  return {
    target: `${server}/modules/${name}/**`,
    from: `${server}/modules/**`,
    except: [here(`${server}/modules/${name}/**`), ...publicFiles.map((f) => here(`${server}/modules/*/${f}.ts`))],
    message: `A module imports another module only through its service.ts${also.length ? ` (or ${also.join(', ')})` : ''}; move what is shared there, or below, to lib.`,
  };
});

// A web feature never imports another feature (the app shell composes them).
const featureZones = dirsIn(`${web}/features`).map((name) => ({
  target: `${web}/features/${name}/**`,
  from: `${web}/features/**`,
  except: [here(`${web}/features/${name}/**`)],
  message: 'Features do not import other features; share through shared/, components or lib.',
}));

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
    files: [`${web}/**/*.{ts,tsx}`],
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })] },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: [...webLayerZones, ...featureZones] },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [serverNotWeb] }] },
  },
  {
    files: [`${server}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: [...serverLayerZones, ...moduleZones] },
      ],
    },
  },
  {
    // The benchmarks and scripts start servers through the server's test helpers
    // (apps/server/test/processes.ts, the rolling-restart scenario); nothing else of an app.
    files: ['bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)apps/(?!server/test/[^/]+$)',
              message: 'bench/ and scripts/ import from the apps only the server test helpers (apps/server/test/*.ts).',
            },
            {
              group: ['@kickback/server*', '@kickback/web*'],
              message: 'Apps do not import each other; share through @kickback/common.',
            },
          ],
        },
      ],
    },
  },
  {
    // Journeys take `test` from ./fixtures, which closes the browser contexts a test opened itself.
    files: ['e2e/tests/**/*.ts'],
    ignores: ['e2e/tests/fixtures.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: "Import test from './fixtures' (it closes the contexts a test opens).",
            },
          ],
        },
      ],
    },
  },
);
