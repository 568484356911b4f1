/**
 * A bare Fastify (lib/bare-server.ts: `GET /hello` and the given bodies) in a process of its own,
 * for the yardsticks a benchmark measures beside the app in the same run.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './site';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface BareProcess {
  url: string;
  pid: number;
  stop(): void;
}

export async function startBareServer(bodies: Record<string, string> = {}): Promise<BareProcess> {
  const port = await freePort();
  const file = path.join(tmpdir(), `kickback-bare-bodies-${process.pid}-${port}.json`);
  writeFileSync(file, JSON.stringify(bodies));
  const bare = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'bare-server.ts'), String(port), file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    bare.stdout!.once('data', () => resolve());
    bare.once('exit', (code) => reject(new Error(`bare server exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: bare.pid!, stop: () => bare.kill('SIGTERM') };
}
