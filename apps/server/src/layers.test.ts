/**
 * The server's layers are enforced by lint (eslint.config.js,
 * docs/conventions.md#rule-10-boundaries-enforced-by-lint): these lint a file that is not on disk,
 * as if it were at a path in the server, and expect the import that runs back up a layer (or into
 * another module's internals) to be an error, and the one that runs down to pass.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

/** The rule ids lint reports for `code` at `file` (relative to apps/server/src). */
async function lint(file: string, code: string): Promise<Array<{ line: number; rule: string | null }>> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(root, 'apps/server/src', file) });
  return (result?.messages ?? []).map((m) => ({ line: m.line, rule: m.ruleId }));
}

const upward = 'import-x/no-restricted-paths';
const internals = 'no-restricted-imports';

describe('server layers in lint', () => {
  it('lib and db import no module, plugin, integration or game', async () => {
    expect(
      await lint(
        'lib/probe.ts',
        [
          "import { rowsOf } from '../db/rows';",
          "import { recordAudit } from '../modules/audit/service';",
          "import { sessionPlugin } from '../plugins/session';",
          "import { KickApi } from '../integrations/kick/api';",
          'export const all = [rowsOf, recordAudit, sessionPlugin, KickApi];',
        ].join('\n'),
      ),
    ).toEqual([
      { line: 2, rule: upward },
      { line: 3, rule: upward },
      { line: 4, rule: upward },
    ]);
    expect(
      await lint('db/schema/probe.ts', "import { buildApp } from '../../app';\nexport const b = buildApp;"),
    ).toEqual([{ line: 1, rule: upward }]);
  });

  it('plugins and integrations import no feature module, nor each other', async () => {
    expect(
      await lint(
        'plugins/probe.ts',
        [
          "import { loadSession } from '../lib/sessions';",
          "import { chatModule } from '../modules/chat/module';",
          "import { KickApi } from '../integrations/kick/api';",
          'export const all = [loadSession, chatModule, KickApi];',
        ].join('\n'),
      ),
    ).toEqual([
      { line: 2, rule: upward },
      { line: 3, rule: upward },
    ]);
    expect(
      await lint(
        'integrations/kick/probe.ts',
        "import type { ChatService } from '../../modules/chat/service';\nexport type C = ChatService;",
      ),
    ).toEqual([{ line: 1, rule: upward }]);
  });

  it('the game engine may use the real-time plugin, never a feature module', async () => {
    expect(
      await lint(
        'games/runner-probe.ts',
        [
          "import { realtimePlugin } from '../plugins/realtime';",
          "import { applyBalanceChange } from '../modules/ledger/service';",
          'export const all = [realtimePlugin, applyBalanceChange];',
        ].join('\n'),
      ),
    ).toEqual([{ line: 2, rule: upward }]);
  });

  it("a module imports another module's service.ts, not its internals, and never the app", async () => {
    expect(
      await lint(
        'modules/chat/probe.ts',
        [
          "import { recordAudit } from '../audit/service';",
          "import { verifyHandler } from '../accounts/kick-link';",
          "import { buildApp } from '../../app';",
          "import { rowsOf } from '../../db/rows';",
          'export const all = [recordAudit, verifyHandler, buildApp, rowsOf];',
        ].join('\n'),
      ),
    ).toEqual([
      { line: 2, rule: upward },
      { line: 3, rule: upward },
    ]);
    // The shell command list reads each module's shell.ts; other modules may not.
    const shellImport = "import { chatShellCommand } from '../chat/shell';\nexport const c = chatShellCommand;";
    expect(await lint('modules/shell/probe.ts', shellImport)).toEqual([]);
    expect(await lint('modules/users/probe.ts', shellImport)).toEqual([{ line: 1, rule: upward }]);
  });

  it('the fences read where an import leads, not how it is spelled', async () => {
    // Another module's internals, spelled every way that leads to the same file, from any depth.
    expect(
      await lint(
        'modules/chat/deep/probe.ts',
        [
          "import { verifyHandler } from '../../accounts/kick-link';",
          "import { verifyHandler as a } from '../../../modules/accounts/kick-link';",
          "import { verifyHandler as b } from './../../accounts/kick-link';",
          "import { verifyHandler as c } from '../../chat/../accounts/kick-link';",
          "import { verifyHandler as d } from '../../accounts//kick-link';",
          "import { verifyHandler as e } from '../../accounts/kick-link.ts';",
          "import type { ChatService } from '../../../modules/audit/../chat/service';",
          "import { recordAudit } from '../../../modules/audit/service';",
          'export const all = [verifyHandler, a, b, c, d, e, recordAudit];',
          'export type C = ChatService;',
        ].join('\n'),
      ),
    ).toEqual([1, 2, 3, 4, 5, 6].map((line) => ({ line, rule: upward })));
    expect(
      await lint(
        'modules/chat/probe.ts',
        "import { verifyHandler } from '../../modules/accounts/kick-link';\nexport const v = verifyHandler;",
      ),
    ).toEqual([{ line: 1, rule: upward }]);
    // Up a layer, oddly spelled: a plugin reaching a module, lib reaching the app.
    expect(
      await lint(
        'plugins/probe.ts',
        "import { chatModule } from './../plugins/../modules/chat/module';\nexport const c = chatModule;",
      ),
    ).toEqual([{ line: 1, rule: upward }]);
    expect(
      await lint('lib/deep/probe.ts', "import { buildApp } from '../.././app';\nexport const b = buildApp;"),
    ).toEqual([{ line: 1, rule: upward }]);
  });

  it('the server never imports its test helpers; the benchmarks and scripts may, and nothing else of it', async () => {
    const helper = "import { freePort } from '../../test/processes';\nexport const f = freePort;";
    expect(await lint('lib/probe.ts', helper)).toEqual([{ line: 1, rule: upward }]);
    expect(await lint('lib/probe.test.ts', helper)).toEqual([]);
    const fromOutside = async (file: string) => {
      const code = [
        "import { ServerProcesses } from '../apps/server/test/processes';",
        "import { buildApp } from '../apps/server/src/app';",
        'export const all = [ServerProcesses, buildApp];',
      ].join('\n');
      const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(root, file) });
      return (result?.messages ?? []).map((m) => ({ line: m.line, rule: m.ruleId }));
    };
    expect(await fromOutside('bench/probe.ts')).toEqual([{ line: 2, rule: internals }]);
    expect(await fromOutside('scripts/probe.ts')).toEqual([{ line: 2, rule: internals }]);
  });
});
