/**
 * An exclusive lock on the PGlite data folder. PGlite is single-process: a second process opening
 * the same folder silently loses writes, so a second server refuses to start and shell commands
 * talk to the running server instead (see control.ts).
 *
 * The lock is a listening local socket (a unix socket in the data folder; a named pipe on
 * Windows): the operating system closes it when the process dies, however it dies, so a kill -9
 * never leaves the folder locked — unlike a pid file, which a reused pid keeps "alive". The holder
 * answers every connection with its pid, which names it in the refusal. A socket file left by a
 * dead process refuses connections; it is moved aside atomically (rename) and re-checked, so two
 * processes starting together over one leftover cannot both take the folder.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data folder ${dataDir} is in use by another Kickback process (pid ${pid}). ` +
        'Only one server may use an embedded database folder; stop it first, use another DATA_DIR, ' +
        'or set DATABASE_URL to share a PostgreSQL server between processes.',
    );
  }
}

export interface DataDirLock {
  release(): void;
}

/** Where the lock listens: in the data folder, unless the path is too long for a unix socket. */
export function lockSocketPath(dataDir: string): string {
  let real = path.resolve(dataDir);
  try {
    real = realpathSync(real);
  } catch {
    // not created yet
  }
  const tag = createHash('sha256').update(real).digest('hex').slice(0, 24);
  if (process.platform === 'win32') return `\\\\.\\pipe\\kickback-${tag}`;
  const inFolder = path.join(real, 'kickback.sock');
  return Buffer.byteLength(inFolder) <= 100 ? inFolder : path.join(tmpdir(), `kickback-${tag}.sock`);
}

type Probe = { live: true; pid: number } | { live: false; code: string };

/** Connects to a lock socket: the holder's pid when one listens, else why not. */
function probe(socketPath: string): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    let text = '';
    const timer = setTimeout(() => finish({ live: true, pid: 0 }), 2000); // listening but silent: held
    const finish = (result: Probe) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) finish({ live: true, pid: Number(text.trim()) || 0 });
    });
    socket.on('end', () => finish({ live: true, pid: Number(text.trim()) || 0 }));
    socket.on('error', (err: NodeJS.ErrnoException) => finish({ live: false, code: err.code ?? 'ERROR' }));
  });
}

function listen(socketPath: string): Promise<Server | 'in-use'> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.end(`${process.pid}\n`));
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') resolve('in-use');
      else reject(err);
    });
    server.listen(socketPath, () => {
      server.unref(); // the lock never keeps the process alive
      resolve(server);
    });
  });
}

/** The pid of the live process holding the folder (0 if it does not say), or null when none does. */
export async function lockHolder(dataDir: string): Promise<number | null> {
  const result = await probe(lockSocketPath(dataDir));
  return result.live ? result.pid : null;
}

export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const socketPath = lockSocketPath(dataDir);
  for (let attempt = 0; attempt < 5; attempt++) {
    const server = await listen(socketPath);
    if (server !== 'in-use') {
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          server.close(); // also removes the socket file
        },
      };
    }
    const holder = await probe(socketPath);
    if (holder.live) throw new DataDirLockedError(dataDir, holder.pid);
    // A leftover of a dead process. Move it aside atomically — of two processes doing this at once
    // only one renames it — then make sure what was moved is not a live lock taken meanwhile.
    const aside = `${socketPath}.${process.pid}.stale`;
    try {
      renameSync(socketPath, aside);
    } catch {
      continue; // someone else moved it: try again
    }
    if ((await probe(aside)).live) {
      renameSync(aside, socketPath); // it was another starter's fresh lock: put it back
      continue;
    }
    rmSync(aside, { force: true });
  }
  throw new Error(`Could not lock ${dataDir}`);
}
