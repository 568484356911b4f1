/**
 * The server under measurement logs as a streamer's would: at its defaults (`info`; a line per write,
 * refusal or slow request, REQUEST_LOG `changes`) unless `--log-level <level>` or
 * `--request-log all` (a line per request) says otherwise, into a file (as a process manager or
 * Docker keeps it), not into a pipe nobody reads. Every benchmark prints what it ran with.
 */
import { openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const i = process.argv.indexOf('--log-level');
/** The level asked for on the command line, or undefined for the server's default. */
export const benchLogLevel: string | undefined = i >= 0 ? process.argv[i + 1] : undefined;

const r = process.argv.indexOf('--request-log');
/** Which requests the server logs, asked for on the command line, or undefined for its default. */
export const benchRequestLog: string | undefined = r >= 0 ? process.argv[r + 1] : undefined;

/** The environment entries for the server's log level and request log (empty at the defaults). */
export function logLevelEnv(): Record<string, string> {
  return {
    ...(benchLogLevel ? { LOG_LEVEL: benchLogLevel } : {}),
    ...(benchRequestLog ? { REQUEST_LOG: benchRequestLog } : {}),
  };
}

/** A line for the benchmark's header: how the server logged and where its log went. */
export function logLevelLine(file: string): string {
  return `server log level: ${benchLogLevel ?? 'info (the default)'}, request log: ${benchRequestLog ?? 'changes (the default)'}, log in ${file}`;
}

/** A file for one server's standard output: its descriptor (for spawn's stdio) and its path. */
export function serverLogFile(name: string): { fd: number; file: string } {
  const file = path.join(tmpdir(), `kickback-bench-${name}-${process.pid}.log`);
  return { fd: openSync(file, 'w'), file };
}
