/**
 * The app's shared plugins (fastify-plugin: what they decorate is seen by the whole app), each with
 * a name and the plugins it needs registered before it: Fastify checks the list when the plugin is
 * registered, so an app that registers its plugins in a wrong order fails at start, naming the
 * missing one, instead of meeting an undefined decoration when a request first reaches it
 * (docs/architecture.md#plugins-and-their-order).
 *
 *   export const huntModule = plugin({ name: 'huntModule', dependencies: ['chatModule'] })(async (app) => { … });
 */
import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';
import fp from 'fastify-plugin';

export interface PluginMeta {
  /** The plugin's name, as other plugins' `dependencies` name it: its exported constant. */
  name: string;
  /** The app's plugins whose decorations this one uses, registering or later. */
  dependencies?: string[];
}

export function plugin(meta: PluginMeta) {
  return <Options extends FastifyPluginOptions>(fn: FastifyPluginAsync<Options>): FastifyPluginAsync<Options> =>
    fp(fn, meta);
}
