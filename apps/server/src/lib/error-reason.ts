/**
 * An error as the reason shown to admins (Integrations, Go live, leaderboard status): its message
 * with what lies under it. Node's fetch fails with only "fetch failed"; the cause says why
 * ("getaddrinfo ENOTFOUND api.example.com", "connect ECONNREFUSED 10.0.0.5:443"), so it is added.
 */
type Caused = Error & { code?: unknown; hostname?: unknown; errors?: unknown };

function causeText(cause: Caused): string {
  if (cause.message) return cause.message;
  // An AggregateError (each address of the host refused) has no message of its own.
  const first = Array.isArray(cause.errors) ? (cause.errors as unknown[])[0] : undefined;
  if (first instanceof Error && first.message) return first.message;
  const code = typeof cause.code === 'string' ? cause.code : '';
  const host = typeof cause.hostname === 'string' ? cause.hostname : '';
  return [code, host].filter(Boolean).join(' ');
}

export function errorReason(err: unknown, max = 300): string {
  if (!(err instanceof Error)) return String(err).slice(0, max);
  const parts = [err.message];
  let cause: unknown = err.cause;
  for (let depth = 0; cause instanceof Error && depth < 3; depth += 1) {
    const text = causeText(cause as Caused);
    if (text && !parts.some((p) => p.includes(text))) parts.push(text);
    cause = cause.cause;
  }
  const [first, ...under] = parts;
  return (under.length > 0 ? `${first} (${under.join(': ')})` : (first ?? '')).slice(0, max);
}
