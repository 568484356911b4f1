/** The rows of a `db.execute` result on either driver (node-postgres and PGlite both use `.rows`). */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  const rows = (result as { rows?: T[] }).rows;
  return rows ?? [];
}
