/** What the benchmarks need to drive a running server from outside: a free port and a sign-in. */

/** A TCP port nothing listens on right now (for the server under measurement). */
export { freePort } from '../../apps/server/test/processes';

/** Signs in through the dev identity provider like the browser popup does; returns the cookie. */
export { devSignIn as signIn } from '../../apps/server/test/dev-sign-in';
