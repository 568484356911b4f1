/**
 * The server under measurement logs as a streamer's would: at its default level (`info`, one line per
 * request) unless `--log-level <level>` says otherwise, into a file (as a process manager or Docker
 * keeps it), not into a pipe nobody reads. Every benchmark prints the level it ran with.
 */
import { openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const i = process.argv.indexOf('--log-level');
/** The level asked for on the command line, or undefined for the server's default. */
export const benchLogLevel: string | undefined = i >= 0 ? process.argv[i + 1] : undefined;

/** The environment entry for the server's log level (empty at the default). */
export function logLevelEnv(): Record<string, string> {
  return benchLogLevel ? { LOG_LEVEL: benchLogLevel } : {};
}

/** A line for the benchmark's header: the level the server ran with and where its log went. */
export function logLevelLine(file: string): string {
  return `server log level: ${benchLogLevel ?? 'info (the default)'}, log in ${file}`;
}

/** A file for one server's standard output: its descriptor (for spawn's stdio) and its path. */
export function serverLogFile(name: string): { fd: number; file: string } {
  const file = path.join(tmpdir(), `kickback-bench-${name}-${process.pid}.log`);
  return { fd: openSync(file, 'w'), file };
}
