/**
 * Server state through TanStack Query on the typed endpoints: a query is keyed by its endpoint
 * (method and path) and its input, so a mutation invalidates every cached page of the endpoints it
 * changes. Failures take the one path of `api()`: the server's message as the contract's toast (unless
 * the call is silent), 401 without a toast.
 */
import { QueryClient, useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import type { EndpointInput, EndpointResponse, EndpointSpec } from '@kickback/common/http/endpoint';
import { ApiError, callEndpoint } from './api';

/** Client errors (4xx) are answers, not outages: they are not retried. */
function shouldRetry(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 15_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** The key of every query on an endpoint: its method and path, then the input. */
export function endpointKey(endpoint: EndpointSpec, input?: { params?: unknown; query?: unknown }): unknown[] {
  const key: unknown[] = [endpoint.method, endpoint.path];
  if (input?.params !== undefined || input?.query !== undefined) key.push(input.params ?? null, input.query ?? null);
  return key;
}

type QueryInput<E extends EndpointSpec> = Omit<EndpointInput<E>, 'body'> & { silent?: boolean };

/** Reads an endpoint (params and query from `input`); the data is parsed by its response schema. */
export function useEndpointQuery<E extends EndpointSpec>(
  endpoint: E,
  input: QueryInput<E> = {} as QueryInput<E>,
  options: Omit<UseQueryOptions<EndpointResponse<E>>, 'queryKey' | 'queryFn'> = {},
) {
  return useQuery<EndpointResponse<E>>({
    queryKey: endpointKey(endpoint, input),
    queryFn: ({ signal }) => callEndpoint(endpoint, { ...input, signal }),
    ...options,
  });
}

/**
 * Calls an endpoint that changes something, then invalidates the queries of `invalidates`
 * (every input of each), so the pages showing them refetch instead of patching by hand. With
 * `alsoOnError` a refused change invalidates them too (the refusal may say the page was behind).
 */
export function useEndpointMutation<E extends EndpointSpec>(
  endpoint: E,
  options: {
    invalidates?: readonly EndpointSpec[];
    alsoOnError?: boolean;
    onSuccess?: (data: EndpointResponse<E>, input: EndpointInput<E>) => void;
  } = {},
) {
  const client = useQueryClient();
  const invalidate = () =>
    Promise.all((options.invalidates ?? []).map((e) => client.invalidateQueries({ queryKey: endpointKey(e) })));
  return useMutation<EndpointResponse<E>, Error, EndpointInput<E>>({
    mutationFn: (input) => callEndpoint(endpoint, input as { params?: unknown; query?: unknown; body?: unknown }),
    onSuccess: async (data, input) => {
      await invalidate();
      options.onSuccess?.(data, input);
    },
    ...(options.alsoOnError ? { onError: () => void invalidate() } : {}),
  });
}
