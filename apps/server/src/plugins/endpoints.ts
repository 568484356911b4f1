/**
 * Routes registered from their shared definition (packages/common/src/http/endpoint.ts): the
 * method, path, access and schemas come from the endpoint, so the server cannot drift from what
 * the web calls. `routeTable` records every route as Fastify registers it, so a test can check that
 * each /api route has its definition and the access it declares.
 */
import type {
  ContextConfigDefault,
  FastifyContextConfig,
  FastifyInstance,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import { plugin } from '../lib/plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { EndpointAccess, EndpointSpec } from '@kickback/common/http/endpoint';
import type { errorBody } from '@kickback/common/http/errors';
import type { Access } from './access';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The shared definition the route was registered from. */
    endpoint?: EndpointSpec;
  }
  interface FastifyInstance {
    /** Every route registered after this plugin, in registration order. */
    routeTable: RegisteredRoute[];
  }
}

export interface RegisteredRoute {
  method: string;
  url: string;
  config: FastifyContextConfig | undefined;
}

export const accessOf: Record<EndpointAccess, Access> = {
  visitor: 'public',
  user: 'user',
  moderator: 'moderator',
  admin: 'admin',
};

type Field<E, K extends string> = E extends Record<K, infer S> ? S : undefined;
type Also<E> = E extends { alsoStatus: readonly (infer S extends number)[] } ? S : never;

/** The Fastify schema an endpoint stands for, so the handler is typed as if declared inline. */
export type EndpointSchema<E extends EndpointSpec> = {
  params: Field<E, 'params'>;
  querystring: Field<E, 'query'>;
  body: Field<E, 'body'>;
  response: { 200: E['response'] } & { [S in Also<E>]: E['response'] } & ErrorAnswers;
};

/** What a handler may answer besides success (the errors plugin's shape); only typed, not serialized. */
type ErrorAnswers = Record<400 | 401 | 403 | 404 | 409 | 410 | 422 | 429 | 500 | 502 | 503, typeof errorBody>;

export type EndpointHandler<E extends EndpointSpec> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  EndpointSchema<E>,
  ZodTypeProvider
>;

/** What a route may add to its definition: rate limits and the like (never its access). */
export interface EndpointOptions {
  config?: Omit<FastifyContextConfig, 'access' | 'endpoint'>;
  /** false: @fastify/compress adds no hooks to the route (its answers come compressed already). */
  compress?: false;
  /** false: no request-body decompression hook (a GET has no body). */
  decompress?: false;
}

/** Registers `endpoint` on `app` with `handler`. */
export function route<const E extends EndpointSpec>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
): void;
export function route<const E extends EndpointSpec>(
  app: FastifyInstance,
  endpoint: E,
  options: EndpointOptions,
  handler: EndpointHandler<E>,
): void;
export function route(
  app: FastifyInstance,
  endpoint: EndpointSpec,
  optionsOrHandler: EndpointOptions | EndpointHandler<EndpointSpec>,
  maybeHandler?: EndpointHandler<EndpointSpec>,
): void {
  const options = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler;
  const handler = (typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler) as RouteHandlerMethod;
  const response: Record<number, unknown> = { 200: endpoint.response };
  for (const status of endpoint.alsoStatus ?? []) response[status] = endpoint.response;
  app.route({
    method: endpoint.method as HTTPMethods,
    url: endpoint.path,
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      response,
    },
    config: { ...options.config, access: accessOf[endpoint.access], endpoint },
    ...(options.compress === false ? { compress: false } : {}),
    ...(options.decompress === false ? { decompress: false } : {}),
    handler,
  });
}

export const endpointsPlugin = plugin({
  name: 'endpointsPlugin',
})(async (app: FastifyInstance) => {
  const table: RegisteredRoute[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    for (const method of methods) table.push({ method, url: options.url, config: options.config });
  });
});
