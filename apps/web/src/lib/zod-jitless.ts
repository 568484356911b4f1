/**
 * Zod without its JIT in the browser: zod probes `new Function('')` to decide whether to compile
 * object parsers, and under our Content-Security-Policy (no eval) that probe is reported as a
 * violation (Lighthouse's best-practices "Issues" item) even though zod catches the throw. The
 * setting is zod's global config object, set before zod loads so that the web's first load does not
 * carry zod (main.tsx imports this first). The server keeps the JIT.
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
