/**
 * Making a fresh PGlite folder (initdb) grows the WebAssembly memory of the PGlite instance that
 * does it to about 630 MB, and a WebAssembly memory never shrinks: a server that made its folder
 * held 800+ MB at idle against about 400 MB when started on an existing folder
 * (docs/benchmarks.md#first-start-embedded-database, First start). So a fresh folder is made by a
 * short-lived child process, and the server then opens it as an existing one.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

// Run by the child: make the cluster in the folder, close it, exit.
const initScript = `
const [url, dir] = process.argv.slice(1);
const { PGlite } = await import(url);
const db = new PGlite(dir);
await db.waitReady;
await db.close();
process.stdout.write(String(process.pid));
`;

/** A folder PGlite has not made its cluster in yet (missing, empty, or holding only our lock socket). */
export function isFreshDataDir(dataDir: string): boolean {
  return !existsSync(path.join(dataDir, 'PG_VERSION'));
}

/**
 * Makes the PGlite cluster of a fresh folder in a child process; does nothing on a folder that has
 * one. Resolves with the child's pid, or null when there was nothing to do.
 */
export async function prepareDataDir(dataDir: string): Promise<number | null> {
  if (!isFreshDataDir(dataDir)) return null;
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const child = spawn(process.execPath, ['--input-type=module', '-e', initScript, pglite, dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`Could not create the database in ${dataDir}: ${err.trim() || `exit code ${code}`}`);
  return Number(out);
}
