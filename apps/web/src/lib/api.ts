/**
 * The one fetch wrapper every call goes through (docs/product.md#site-errors-and-toasts): sends the CSRF header; 401 →
 * rejects with "Authorization error." and no toast; any other non-OK answer → the body's
 * `message` (or "System error.") as an error toast, rejected as "Handled api error.".
 */
import { toast } from './toast';
import type { z } from 'zod';
import type { ErrorBody, FieldError } from '@kickback/common/http/errors';
import { messages } from '@kickback/common/messages';
import type { EndpointInput, EndpointResponse, EndpointSpec } from '@kickback/common/http/endpoint';
import { endpointPath, endpointQuery } from '@kickback/common/http/endpoint-path';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** What the server said (already shown as a toast unless status is 401). */
    readonly serverMessage: string = message,
    /** Each field's problem of a 400 for bad input (a form puts each on its field). */
    readonly fields: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface CallOptions<S extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Validates (and types) the answer. */
  schema?: S;
  signal?: AbortSignal;
  cache?: RequestCache;
  /** No toast on failure (for calls whose failure the contract wants silent, e.g. leaderboards). */
  silent?: boolean;
}

/**
 * The error body's shape (`errorBody` of packages/common), checked by hand: every page's script goes
 * through here, and the schema would bring zod into the first load.
 */
export function readErrorBody(value: unknown): ErrorBody | null {
  if (typeof value !== 'object' || value === null) return null;
  const { message, fields } = value as Record<string, unknown>;
  if (typeof message !== 'string') return null;
  if (fields === undefined) return { message };
  const isField = (f: unknown): f is FieldError =>
    typeof f === 'object' &&
    f !== null &&
    typeof (f as FieldError).path === 'string' &&
    typeof (f as FieldError).message === 'string';
  return Array.isArray(fields) && fields.every(isField) ? { message, fields } : null;
}

async function answerOf(res: Response): Promise<{ message: string; fields: readonly FieldError[] }> {
  try {
    const body = readErrorBody(await res.json());
    if (body?.message) return { message: body.message, fields: body.fields ?? [] };
  } catch {
    // not JSON
  }
  return { message: messages.systemError, fields: [] };
}

interface CallExtras {
  signal?: AbortSignal;
  /** The browser's HTTP cache for this call ('no-cache': revalidate a cached answer with the server). */
  cache?: RequestCache;
  /** No toast on failure (for calls whose failure the contract wants silent, e.g. leaderboards). */
  silent?: boolean;
}

/** Required unless the endpoint takes no params and no body. */
type EndpointArgs<E extends EndpointSpec> =
  Record<never, never> extends EndpointInput<E>
    ? [input?: EndpointInput<E> & CallExtras]
    : [input: EndpointInput<E> & CallExtras];

/**
 * Calls an endpoint defined in packages/common: its params fill the path, its query and body are
 * typed by its schemas, and the answer is parsed by its response schema.
 */
export async function api<E extends EndpointSpec>(endpoint: E, ...args: EndpointArgs<E>): Promise<EndpointResponse<E>>;
/** A call outside the endpoint table: the `/auth` routes (an `/api` path goes through its definition). */
export async function api<S extends z.ZodType = z.ZodUnknown>(
  path: `/auth/${string}`,
  options?: CallOptions<S>,
): Promise<z.infer<S>>;
export async function api(
  target: string | EndpointSpec,
  options: (CallOptions<z.ZodType> & { params?: unknown; query?: unknown }) | undefined = {},
): Promise<unknown> {
  if (typeof target !== 'string') return callEndpoint(target, options);
  return send(target, options);
}

/**
 * `api(endpoint, input)` for generic helpers (paged lists, loaders) whose endpoint type is a
 * parameter: the input is checked by the helper's own signature.
 */
export function callEndpoint<E extends EndpointSpec>(
  endpoint: E,
  input: { params?: unknown; query?: unknown; body?: unknown } & CallExtras,
): Promise<EndpointResponse<E>> {
  const { params, query, body, signal, silent, cache } = input;
  const path =
    endpointPath(endpoint, params as Record<string, unknown>) + endpointQuery(query as Record<string, unknown>);
  return send(path, {
    method: endpoint.method,
    ...(body !== undefined ? { body } : {}),
    schema: endpoint.response,
    ...(signal ? { signal } : {}),
    ...(cache ? { cache } : {}),
    ...(silent ? { silent } : {}),
  }) as Promise<EndpointResponse<E>>;
}

/**
 * Uploads one file to an endpoint that takes a multipart form (e.g. the image upload): the browser
 * sets the multipart content type; failures toast and reject as any other call.
 */
export function uploadFile<E extends EndpointSpec>(
  endpoint: E,
  field: string,
  file: File,
): Promise<EndpointResponse<E>> {
  const form = new FormData();
  form.append(field, file, file.name);
  return send(endpointPath(endpoint, {}), {
    method: endpoint.method,
    body: form,
    schema: endpoint.response,
  }) as Promise<EndpointResponse<E>>;
}

async function send(path: string, options: CallOptions<z.ZodType>): Promise<unknown> {
  const { method = 'GET', body, schema, signal, cache, silent = false } = options;
  const isForm = body instanceof FormData;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        'X-Requested-With': 'kickback',
        Accept: 'application/json',
        ...(body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: isForm ? body : JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
      ...(cache ? { cache } : {}),
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    if (!silent) toast.error(messages.systemError);
    throw new ApiError(messages.handledApiError, 0, messages.systemError);
  }
  if (res.status === 401) throw new ApiError(messages.authorizationError, 401);
  if (!res.ok) {
    const { message, fields } = await answerOf(res);
    if (!silent) toast.error(message);
    throw new ApiError(messages.handledApiError, res.status, message, fields);
  }
  const data: unknown = res.status === 204 ? undefined : await res.json();
  return schema ? schema.parse(data) : data;
}
