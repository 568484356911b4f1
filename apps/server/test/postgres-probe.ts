/** Whether a PostgreSQL answers: the race and multi-process tests run only where one does. */
import pg from 'pg';

/** Why the PostgreSQL at `url` cannot be used, or null. */
export async function postgresUnreachable(url: string): Promise<string | null> {
  try {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    await client.connect();
    await client.end();
    return null;
  } catch (err) {
    return `PostgreSQL at ${url} is not reachable (${(err as Error).message})`;
  }
}
