/**
 * Every `/api` route defined once (docs/conventions.md#rule-13-endpoints-defined-once), as the hubs
 * are (hubs/hub.ts): method, path, who may call it, and the schemas of its params, query, body and
 * answer. The server registers its route from the definition (plugins/endpoints.ts) and the web's
 * `api()` calls through it (lib/api.ts), so a path, a body or an answer cannot drift between the
 * two.
 */
import { z } from 'zod';
import { strictInt } from './strict-int';
import type { AccessLevel } from '../access';

export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call it: anyone (`visitor`), a signed-in user (`user`), a Moderator or an Admin
 * (`moderator`), or an admin (`admin`). The server answers 401 without sign-in and 403 without the
 * role (access.ts).
 */
export type EndpointAccess = AccessLevel;

export interface EndpointSpec {
  method: EndpointMethod;
  /** Fastify's syntax: `:name` for a path parameter, e.g. `/api/admin/products/:id`. */
  path: `/api/${string}`;
  access: EndpointAccess;
  params?: z.ZodType<Record<string, unknown>>;
  query?: z.ZodType<Record<string, unknown>>;
  body?: z.ZodType;
  /** The 200 answer. */
  response: z.ZodType;
  /** Further success statuses answered with the same shape (e.g. 202 while work goes on). */
  alsoStatus?: readonly number[];
}

export function defineEndpoint<const E extends EndpointSpec>(endpoint: E): E {
  return endpoint;
}

type Defined<S> = S extends z.ZodType ? S : never;

/** What a caller passes for an endpoint's params, query and body (each only where it has one). */
export type EndpointInput<E extends EndpointSpec> = ([Defined<E['params']>] extends [never]
  ? { params?: undefined }
  : { params: z.input<Defined<E['params']>> }) &
  ([Defined<E['query']>] extends [never] ? { query?: undefined } : { query?: z.input<Defined<E['query']>> }) &
  ([Defined<E['body']>] extends [never] ? { body?: undefined } : { body: z.input<Defined<E['body']>> });

export type EndpointResponse<E extends EndpointSpec> = z.output<E['response']>;

export { endpointPath, endpointQuery } from './endpoint-path';

/** The one paging envelope every paged list answers with: its items, their total and the page. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number(),
    page: z.number(),
    pageSize: z.number(),
  });
}

export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** `?page=N` of a paged list (1-based). */
export const pageNumber = strictInt('Page must be a whole number', z.number().min(1).max(10_000)).default(1);
