/**
 * Where a same-tab sign-in goes back to. Only a path on this site is accepted, so the sign-in can
 * never be used to send a person to another origin (an open redirect): it must start with one "/",
 * must not be protocol-relative ("//evil", "/\evil"), carries no control characters, resolves to our
 * own origin, and is not a server route (/auth, /api, /dev) that would loop or act.
 */
const MAX_RETURN_PATH = 512;

export function safeReturnPath(raw: unknown, publicUrl: string): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_RETURN_PATH) return null;
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  // Backslashes are read as slashes by browsers; control characters and spaces can hide a scheme.
  if ([...raw].some((ch) => ch === '\\' || /\s/.test(ch) || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) {
    return null;
  }
  let url: URL;
  try {
    url = new URL(raw, publicUrl);
  } catch {
    return null;
  }
  if (url.origin !== new URL(publicUrl).origin) return null;
  if (/^\/(auth|api|dev)(\/|$)/i.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The return path with the sign-in outcome added, for the web app to announce. */
export function withSigninOutcome(returnPath: string, outcome: 'ok' | 'failed' | 'cancelled', publicUrl: string) {
  const url = new URL(returnPath, publicUrl);
  url.searchParams.set('signin', outcome);
  return `${url.pathname}${url.search}${url.hash}`;
}
