/**
 * Signing in from outside a running server, as the browser popup does, for the tools that drive
 * one over HTTP (the rolling restart, the benchmarks): the dev identity provider's form, its
 * callback, and the session cookie it leaves.
 */

/**
 * Signs in through the dev identity provider like the browser popup does; returns the cookie.
 * `demo` picks a demo user as its button does (a typed demo id is refused).
 */
export async function devSignIn(
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
