/**
 * The stack's limit for a payload: a bare Fastify (no hooks, plugins or schemas) that answers
 * `GET /hello` with a hello-world and every path named in the bodies file with that exact body as
 * JSON. Started by bench/reads.ts in its own process: `tsx lib/bare-server.ts <port> <bodies.json>`.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [port, bodiesFile] = process.argv.slice(2);
const bodies = JSON.parse(readFileSync(bodiesFile!, 'utf8')) as Record<string, string>;
const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
for (const [path, body] of Object.entries(bodies)) {
  const bytes = Buffer.from(body);
  app.get(path, (_request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8').send(bytes);
  });
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
console.log('ready');
