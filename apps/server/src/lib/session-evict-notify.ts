/**
 * A role change made outside every server process (`npm run admin -- grant|revoke` on PostgreSQL
 * opens the database itself) is announced with PostgreSQL NOTIFY, sent in the transaction that
 * changes the role (so it goes out on commit, and only then). Every server process on PostgreSQL
 * LISTENs on its own connection and, for each announcement, drops the user's cached sessions and
 * closes the user's sockets it holds; clients reconnect and the handshake reads the new role. This
 * needs no Redis. docs/operations-redis-outage.md.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { DbOrTx } from '../db/client';
import type { Eviction } from './session-cache';

export const EVICTION_CHANNEL = 'kickback_session_evict';
/** How long to wait before listening again after the connection was lost. */
const RELISTEN_MS = 1000;

/** Announces an eviction to the running server processes once the transaction commits. */
export async function notifyEviction(tx: DbOrTx, eviction: Eviction): Promise<void> {
  await tx.execute(sql`SELECT pg_notify(${EVICTION_CHANNEL}, ${JSON.stringify(eviction)})`);
}

function parse(payload: string | undefined): Eviction | null {
  try {
    const value = JSON.parse(payload ?? '') as Record<string, unknown>;
    if (typeof value.userId === 'string') return { userId: value.userId };
    if (typeof value.sessionId === 'string') return { sessionId: value.sessionId };
  } catch {
    // not ours
  }
  return null;
}

/** On PostgreSQL: listens for announced evictions for as long as the app runs. */
export async function listenForEvictions(app: FastifyInstance, pool: pg.Pool): Promise<void> {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const apply = (eviction: Eviction) => {
    app.sessionCache.evictLocally(eviction);
    app.realtime.disconnectHere(eviction);
  };

  const connect = async (): Promise<void> => {
    const c = new pg.Client(pool.options);
    c.on('notification', (message) => {
      if (message.channel !== EVICTION_CHANNEL) return;
      const eviction = parse(message.payload);
      if (eviction) apply(eviction);
    });
    const lost = (err?: Error) => {
      if (closed || client !== c) return;
      client = null;
      app.log.warn({ err: err?.message }, 'session evictions: PostgreSQL listener lost; listening again');
      c.end().catch(() => undefined);
      retry = setTimeout(() => void connect(), RELISTEN_MS);
      retry.unref();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${EVICTION_CHANNEL}`);
    } catch (err) {
      lost(err as Error);
    }
  };

  await connect();
  app.addHook('onClose', async () => {
    closed = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => undefined);
  });
}
