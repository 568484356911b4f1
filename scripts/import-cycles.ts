/**
 * The import graph of the repository's TypeScript, as the TypeScript compiler resolves it, and the
 * cycles in it. Every import counts: type-only ones (a type cycle still ties two files into one
 * unit) and dynamic `import()` ones (a lazy page that imports its route table back).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SKIP = new Set(['node_modules', 'dist', 'test-results', 'playwright-report']);

function sourceFiles(dir: string, into: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, into);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) into.push(full);
  }
  return into;
}

export function importGraph(dirs: string[]): Map<string, string[]> {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => sourceFiles(d))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const deps = importedFiles.flatMap(({ fileName }) => {
      const resolved = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule;
      return resolved && !resolved.resolvedFileName.includes('node_modules') ? [resolved.resolvedFileName] : [];
    });
    graph.set(
      path.resolve(file),
      deps.map((d) => path.resolve(d)),
    );
  }
  return graph;
}

/** Each group of files that import each other round (Tarjan's strongly connected components). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || graph.get(v)?.includes(v)) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}
