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

/**
 * Data errors the database raises for values the schemas let through (an integer above a column's
 * range, NUL in text, a malformed value): the request was bad, not the server. The answer is a
 * 400 with this message; the statement failed, so its transaction changed nothing.
 */
export function badInputMessage(err: unknown): string | null {
  const code = pgError(err)?.code;
  switch (code) {
    case '22003': // numeric_value_out_of_range
      return 'Invalid request: a number is out of range.';
    case '22021': // character_not_in_repertoire (NUL in text)
    case '22P05': // untranslatable_character
      return 'Invalid request: text must not contain NUL characters.';
    case '22P02': // invalid_text_representation
    case '22007': // invalid_datetime_format
    case '22008': // datetime_field_overflow
      return 'Invalid request: a value has the wrong form.';
    case '22001': // string_data_right_truncation
      return 'Invalid request: a text is too long.';
    default:
      return null;
  }
}

/**
 * An error caused by the values of a statement (SQLSTATE class 22, data exception, or 23, integrity
 * constraint violation), not by the connection or the server: the same statement with other rows
 * may succeed.
 */
export function isDataError(err: unknown): boolean {
  const code = pgError(err)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
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
