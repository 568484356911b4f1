/**
 * Starts the server: configuration, database (with the data-folder lock for PGlite), migrations,
 * demo data, listen, graceful drain and shutdown. Nothing else lives here.
 */
import { buildApp } from './app';
import { flushLog } from './lib/log-destination';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from './db/data-lock';
import { migrate, withMigrationLock, type AppliedMigration } from './db/migrate';
import { seedDemoData } from './modules/demo/seed';
import { rehashStoreCodes } from './modules/store/rehash';
import { setupLink } from './modules/site/setup-claim';

/**
 * Node's process warnings (a MaxListenersExceededWarning from the Redis adapter's subscriber, a
 * deprecation) go into the JSON log at `warn` instead of as bare text on stderr, which would break
 * a log reader's one-JSON-object-a-line (docs/operations.md#logs). Held until the logger exists.
 */
function logWarnings(): (log: { warn: (obj: object, msg: string) => void }) => void {
  const early: Error[] = [];
  let sink: ((w: Error) => void) | null = null;
  process.removeAllListeners('warning');
  process.on('warning', (w) => (sink ? sink(w) : early.push(w)));
  return (log) => {
    sink = (w) => log.warn({ warning: w.name, code: (w as { code?: string }).code }, w.message);
    for (const w of early.splice(0)) sink(w);
  };
}

async function main(): Promise<void> {
  const warningsTo = logWarnings();
  const config = loadConfig();
  let lock: DataDirLock | null = null;
  if (config.database.kind === 'pglite' && config.database.dataDir) {
    lock = await acquireDataDirLock(config.database.dataDir);
  }
  const migrations: AppliedMigration[] = [];
  const database = await openDatabase(config.database).catch((err: unknown) => {
    throw databaseUnreachable(err, config.database);
  });
  try {
    await migrate(database, undefined, (m) => migrations.push(m));
  } catch (err) {
    throw databaseUnreachable(err, config.database);
  }
  const app = await buildApp({ config, database });
  warningsTo(app.log);
  // Each migration this process applied, once (docs/operations.md#upgrades); none on a plain restart.
  for (const m of migrations) app.log.info({ migration: m.name, ms: m.ms }, `migration applied: ${m.name}`);
  // Store codes still hashed as typed, once, under the migration lock (docs/features/points-and-store.md).
  await rehashStoreCodes(database, config.codeKey, app.log);
  if (config.demoData) await withMigrationLock(database, () => seedDemoData(app));

  // Graceful drain (docs/operations.md#graceful-drain-and-rolling-restarts): /healthz turns 503 at
  // once so the load balancer stops sending new work here, DRAIN_MS later the process closes: no
  // new connections, in-flight requests and hub calls finish, every socket is closed (clients
  // reconnect to another process and resync), game timers stop (their deadlines are rows another
  // process's sweep fires), buffered chat points and chat writes are committed, then the database
  // closes.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.lifecycle.draining = true;
    app.log.info({ signal, drainMs: config.drainMs }, 'draining');
    const force = setTimeout(() => process.exit(1), config.drainMs + 15_000);
    force.unref();
    try {
      if (config.drainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.drainMs));
      app.log.info('shutting down');
      await app.close();
      await database.close();
    } finally {
      lock?.release();
      clearTimeout(force);
    }
    await flushLog();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      url: config.publicUrl,
      database: config.database.kind === 'pglite' ? `PGlite ${config.database.dataDir}` : 'PostgreSQL',
      signin: config.steam.signin,
    },
    `Kickback is running at ${config.publicUrl}`,
  );
  // First run (docs/go-live.md): until an account is Admin, every start prints the one-time link.
  const link = await setupLink(app.db, config.publicUrl);
  if (link) {
    app.log.warn(
      { setupLink: link },
      `This site has no admin yet. Open ${link} and sign in: that account becomes the admin (the link works once).`,
    );
  }
}

/**
 * The first database call failed: a PostgreSQL that does not answer, refuses the login or lacks
 * the database becomes one readable line naming DATABASE_URL (password hidden), not a stack trace.
 */
function databaseUnreachable(err: unknown, database: ReturnType<typeof loadConfig>['database']): unknown {
  const code = (err as { code?: unknown }).code;
  if (database.kind !== 'postgres' || typeof code !== 'string') return err;
  const url = new URL(database.url);
  if (url.password) url.password = '***';
  const reason =
    {
      ECONNREFUSED: 'nothing answers there (is PostgreSQL running, on that host and port?)',
      ENOTFOUND: 'that host name does not resolve',
      EAI_AGAIN: 'that host name does not resolve (yet)',
      ETIMEDOUT: 'the connection timed out',
      '28P01': 'the password was refused',
      '28000': 'the login was refused',
      '3D000': 'that database does not exist',
    }[code] ?? (err as Error).message;
  return new ConfigError(`Cannot open the database at DATABASE_URL ${url.toString()}: ${reason} [${code}]`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(`\n${err.message}\n`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
