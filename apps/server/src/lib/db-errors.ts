/**
 * Recognising database errors across drivers: node-postgres and PGlite both report the SQLSTATE
 * (`code`) and the violated constraint, possibly wrapped by Drizzle in `cause`.
 */
interface PgLikeError {
  code?: unknown;
  constraint?: unknown;
  detail?: unknown;
  message?: unknown;
  cause?: unknown;
}

function pgError(err: unknown): PgLikeError | null {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const e = current as PgLikeError;
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e;
    current = e.cause;
  }
  return null;
}

/** A unique violation (23505); with `constraint`, only of that constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  if (!e || e.code !== '23505') return false;
  return constraint === undefined || violatedConstraint(err) === constraint;
}

/** The name of the violated constraint or index, when the driver says. */
export function violatedConstraint(err: unknown): string | null {
  const e = pgError(err);
  if (!e) return null;
  if (typeof e.constraint === 'string') return e.constraint;
  const text = `${typeof e.message === 'string' ? e.message : ''} ${typeof e.detail === 'string' ? e.detail : ''}`;
  return /constraint "([^"]+)"/.exec(text)?.[1] ?? null;
}
