/**
 * The loopback control endpoint shell commands use while a server holds the embedded database:
 * `POST /internal/control { command, args }`, only from 127.0.0.1/::1, authorised by a secret the
 * server writes (mode 0600) into its data folder at start. The app hands it the command runner, so
 * this plugin does not import the commands (they are features).
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { plugin } from '../lib/plugin';
import { z } from 'zod';
import { forbidden } from '../lib/errors';
import { randomToken } from '../lib/random';
import type { ShellRunner } from '../lib/shell-command';

export const CONTROL_FILE = 'control.json';

export interface ControlInfo {
  pid: number;
  url: string;
  secret: string;
}

const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const body = z.object({ command: z.string().max(50), args: z.unknown() });

export const controlPlugin = plugin({
  name: 'controlPlugin',
})(async (app: FastifyInstance, opts: { dataDir: string | null; run: ShellRunner }) => {
  const secret = randomToken(32);
  const file = opts.dataDir ? path.join(opts.dataDir, CONTROL_FILE) : null;

  app.post('/internal/control', { config: { access: 'public' } }, async (request) => {
    if (!loopback.has(request.socket.remoteAddress ?? '')) throw forbidden();
    const given = Buffer.from((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    const expected = Buffer.from(secret);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw forbidden();
    const { command, args } = body.parse(request.body);
    return { output: await opts.run({ db: app.db, app }, command, args) };
  });

  if (!file) return;
  app.addHook('onListen', async () => {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : app.config.port;
    const info: ControlInfo = { pid: process.pid, url: `http://127.0.0.1:${port}`, secret };
    writeFileSync(file, JSON.stringify(info), { mode: 0o600 });
  });
  app.addHook('onClose', async () => {
    rmSync(file, { force: true });
  });
});
