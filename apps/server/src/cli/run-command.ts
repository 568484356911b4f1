/**
 * Runs a shell command where it is safe to: through the running server's loopback control
 * endpoint when a server holds the embedded database (PGlite is single-process), otherwise on a
 * database connection of our own (holding the folder lock while we do).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { openDatabase } from '../db/client';
import { acquireDataDirLock, lockHolder } from '../db/data-lock';
import { migrate } from '../db/migrate';
import { AppError } from '../lib/errors';
import { CONTROL_FILE, type ControlInfo } from '../plugins/control';
import type { ShellCommand } from '../lib/shell-command';
import { isShellCommand, runShellCommand, shellCommands } from '../modules/shell/commands';

async function viaServer(info: ControlInfo, command: string, args: unknown): Promise<string> {
  const res = await fetch(`${info.url}/internal/control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${info.secret}` },
    body: JSON.stringify({ command, args }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await res.json()) as { output?: string; message?: string };
  if (!res.ok) throw new AppError(res.status, body.message ?? `Server answered ${res.status}`);
  return body.output ?? '';
}

export async function runCommand(command: string, args: unknown): Promise<string> {
  const config = loadConfig();
  if (config.database.kind === 'pglite' && config.database.dataDir) {
    const dataDir = config.database.dataDir;
    const holder = await lockHolder(dataDir);
    if (holder !== null) {
      let info: ControlInfo;
      try {
        info = JSON.parse(readFileSync(path.join(dataDir, CONTROL_FILE), 'utf8')) as ControlInfo;
      } catch {
        throw new Error(`A Kickback server (pid ${holder}) holds ${dataDir} but is not answering yet; try again.`);
      }
      return viaServer(info, command, args);
    }
    const lock = await acquireDataDirLock(dataDir);
    try {
      return await runLocally(config, command, args);
    } finally {
      lock.release();
    }
  }
  return runLocally(config, command, args);
}

async function runLocally(config: Config, command: string, args: unknown) {
  const database = await openDatabase(config.database);
  try {
    await migrate(database);
    const needsApp = isShellCommand(command) && (shellCommands[command] as ShellCommand).needsApp === true;
    if (!needsApp) {
      return await runShellCommand({ db: database.db }, command, args);
    }
    // The app without listening: no background work, no port; only what the command calls.
    const app = await buildApp({ config, database, webDist: null, loggerInstance: pino({ level: 'warn' }) });
    try {
      await app.ready();
      return await runShellCommand({ db: database.db, app }, command, args);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

/** Prints the result or the error, and sets the exit code. */
export async function cliMain(command: string, args: unknown): Promise<void> {
  try {
    console.log(await runCommand(command, args));
  } catch (err) {
    console.error(err instanceof AppError || err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  }
}
