/**
 * The web app's layers are enforced by lint (eslint.config.js,
 * docs/conventions.md#rule-10-boundaries-enforced-by-lint): these lint a file that is not on disk,
 * as if it were at a path in the web app, and expect an import that runs up a layer — a feature
 * into the app shell, lib or a shared component into a feature — to be an error, and one that runs
 * down to pass.
 */
// @vitest-environment node
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

/** The rule ids lint reports for `code` at `file` (relative to apps/web/src). */
async function lint(file: string, code: string): Promise<Array<{ line: number; rule: string | null }>> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(root, 'apps/web/src', file) });
  return (result?.messages ?? []).map((m) => ({ line: m.line, rule: m.ruleId }));
}

const upward = 'import-x/no-restricted-paths';

describe('web layers in lint', () => {
  it('lib imports no component, shared context, feature or app shell', async () => {
    expect(
      await lint(
        'lib/probe.ts',
        [
          "import { api } from './api';",
          "import { Countdown } from '../components/ui/countdown';",
          "import { useAuth } from '../shared/auth/auth-context';",
          "import { StorePage } from '../features/store/store-page';",
          "import { routes } from '../app/routes';",
          'export const all = [api, Countdown, useAuth, StorePage, routes];',
        ].join('\n'),
      ),
    ).toEqual([
      { line: 2, rule: upward },
      { line: 3, rule: upward },
      { line: 4, rule: upward },
      { line: 5, rule: upward },
    ]);
  });

  it('i18n imports nothing of the app, not even lib', async () => {
    expect(
      await lint(
        'i18n/probe.ts',
        [
          "import { api } from '../lib/api';",
          "import { useAuth } from '../shared/auth/auth-context';",
          "import { LOCALES } from '@kickback/common/i18n/locales';",
          'export const all = [api, useAuth, LOCALES];',
        ].join('\n'),
      ),
    ).toEqual([
      { line: 1, rule: upward },
      { line: 2, rule: upward },
    ]);
  });

  it('shared components import no feature, shared context or app shell', async () => {
    expect(
      await lint(
        'components/ui/probe.ts',
        [
          "import { formatAmount } from '../../lib/format';",
          "import { useSite } from '../../shared/site-context';",
          "import { StorePage } from '../../features/store/store-page';",
          "import { routes } from '../../app/routes';",
          'export const all = [formatAmount, useSite, StorePage, routes];',
        ].join('\n'),
      ),
    ).toEqual([
      { line: 2, rule: upward },
      { line: 3, rule: upward },
      { line: 4, rule: upward },
    ]);
  });

  it('a feature reads shared/, components and lib, never the app shell', async () => {
    expect(
      await lint(
        'features/store/probe.ts',
        [
          "import { useAuth } from '../../shared/auth/auth-context';",
          "import { Countdown } from '../../components/ui/countdown';",
          "import { api } from '../../lib/api';",
          "import { routes } from '../../app/routes';",
          'export const all = [useAuth, Countdown, api, routes];',
        ].join('\n'),
      ),
    ).toEqual([{ line: 4, rule: upward }]);
  });

  it('a feature never imports another feature, however the import is spelled', async () => {
    expect(
      await lint(
        'features/vip/deep/probe.ts',
        [
          "import { visibleProducts } from '../../store/catalogue';",
          "import { visibleProducts as a } from '../../../features/store/catalogue';",
          "import { visibleProducts as b } from './../../store/catalogue';",
          "import { visibleProducts as c } from '../../vip/../store/catalogue';",
          "import { api } from '../../../lib/api';",
          'export const all = [visibleProducts, a, b, c, api];',
        ].join('\n'),
      ),
    ).toEqual([1, 2, 3, 4].map((line) => ({ line, rule: upward })));
  });
});
