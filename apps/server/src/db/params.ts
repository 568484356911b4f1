/**
 * Lists bound as one array parameter. The planner sees the array as a constant — which it hashes
 * when filtering, or probes an index with — rather than a subquery over a JSON text it knows nothing
 * of (planned, on a table just filled, as a rescan of the list per row: docs/benchmarks.md#milestones).
 */
import { sql, type SQL } from 'drizzle-orm';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** These ids as one `uuid[]` parameter; an id that is no uuid is refused before any statement. */
export function uuidArray(ids: readonly string[]): SQL {
  for (const id of ids) if (!UUID.test(id)) throw new RangeError(`not a uuid: ${JSON.stringify(id)}`);
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}
