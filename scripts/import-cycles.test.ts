import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cycles, importGraph } from './import-cycles';

const root = path.resolve(import.meta.dirname, '..');
const workspaces = ['apps', 'packages', 'e2e', 'bench', 'scripts'].map((d) => path.join(root, d));

const scratch = mkdtempSync(path.join(tmpdir(), 'kb-cycles-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(scratch, 'tree-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('import cycles', () => {
  it('there are none in the repository', () => {
    const graph = importGraph(workspaces);
    expect(graph.size).toBeGreaterThan(300);
    expect(cycles(graph).map((group) => group.map((f) => path.relative(root, f)))).toEqual([]);
  });

  it('are found through type-only and dynamic imports, as the repository once had them', () => {
    const dir = tree({
      // The shell command list and a command that imported its type from the list.
      'shell/commands.ts':
        "import { chat } from './chat';\nexport interface Command { run(): void }\nexport const all = [chat];\n",
      'shell/chat.ts': "import type { Command } from './commands';\nexport const chat: Command = { run() {} };\n",
      // The route table that lazily loads a page, and the page that imported the table.
      'web/routes.ts':
        "export const routes = [() => import('./home')];\nexport const has = (p: string) => p === '/';\n",
      'web/home.ts': "import { has } from './routes';\nexport default has;\n",
      'fine/a.ts': "import { b } from './b';\nexport const a = b;\n",
      'fine/b.ts': 'export const b = 1;\n',
    });
    const found = cycles(importGraph([dir])).map((group) => group.map((f) => path.relative(dir, f)));
    expect(found.sort()).toEqual([
      ['shell/chat.ts', 'shell/commands.ts'],
      ['web/home.ts', 'web/routes.ts'],
    ]);
  });
});
