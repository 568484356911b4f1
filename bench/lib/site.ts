/** What the benchmarks need to drive a running server from outside: a free port and a sign-in. */

/** A TCP port nothing listens on right now (for the server under measurement). */
export { freePort } from '../../apps/server/test/processes';

/**
 * Signs in through the dev identity provider like the browser popup does; returns the cookie.
 * `demo` picks a demo user as its button does (a typed demo id is refused).
 */
export async function signIn(
  base: string,
  steamId: string,
  name: string,
  opts: { demo?: boolean } = {},
): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, v] = pair!.split('=');
      jar.set(k!, v ?? '');
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const start = await fetch(`${base}/auth/steam/signin`, { redirect: 'manual' });
  keep(start);
  const login = new URL(start.headers.get('location')!, base);
  const posted = await fetch(login, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie() },
    body: new URLSearchParams({ steamid: steamId, personaname: name, ...(opts.demo ? { demo: '1' } : {}) }),
  });
  const callback = new URL(posted.headers.get('location')!, base);
  const done = await fetch(callback, { redirect: 'manual', headers: { cookie: cookie() } });
  keep(done);
  const session = [...jar].find(([k]) => k.endsWith('kb_session'));
  if (!session) throw new Error(`sign-in failed for ${name}`);
  return `${session[0]}=${session[1]}`;
}
