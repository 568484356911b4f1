/**
 * A Kickback server of a journey's own (the built server on an in-memory database), for journeys
 * that need a fresh site or change what every other journey relies on (docs/go-live.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/server/dist/main.js');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts a server of its own on an in-memory database; resolves once its log shows what `ready` looks
 * for. `publicHost` is the host of its PUBLIC_URL (localhost unless told).
 */
export async function startSite(
  env: Record<string, string>,
  ready: (output: string) => string | null,
  { publicHost = 'localhost' }: { publicHost?: string } = {},
): Promise<{ url: string; found: string; server: ChildProcess }> {
  const port = await freePort();
  const url = `http://${publicHost}:${port}`;
  const server = spawn(process.execPath, [serverMain], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: ':memory:',
      DEMO_DATA: '0',
      LEADERBOARD_POLLER: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const found = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not get ready:\n${output}`)), 180_000);
    const read = (d: Buffer) => {
      output += d.toString();
      const hit = ready(output);
      if (hit !== null) {
        clearTimeout(timer);
        resolve(hit);
      }
    };
    server.stdout!.on('data', read);
    server.stderr!.on('data', read);
    server.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  return { url, found, server };
}

/** `startSite`'s `ready` for a server that has started (its log says so at `info`). */
export const running = (output: string) => (output.includes('Kickback is running at') ? '' : null);
