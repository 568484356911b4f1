/**
 * A cookie the web app can read (the session cookie itself is httpOnly): set with the session and
 * cleared at sign-out, it tells the app whether asking `GET /api/User/ping` at start makes sense, so
 * a signed-out visitor's first load makes no call that must fail with 401 (a console error). It
 * grants nothing; the session cookie decides.
 */
export const SIGNED_IN_HINT_COOKIE = 'kb_signed_in';

/** Whether the browser's cookies carry the hint. */
export function hasSignedInHint(cookies: string): boolean {
  return cookies.split(';').some((c) => c.trim() === `${SIGNED_IN_HINT_COOKIE}=1`);
}
