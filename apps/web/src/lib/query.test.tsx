import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn() } }));

const { defineEndpoint } = await import('@kickback/common/http/endpoint');
const { createQueryClient, useEndpointMutation, useEndpointQuery } = await import('./query');

const list = defineEndpoint({ method: 'GET', path: '/api/things', access: 'visitor', response: z.array(z.string()) });
const add = defineEndpoint({
  method: 'POST',
  path: '/api/things/add',
  access: 'admin',
  body: z.object({ name: z.string() }),
  response: z.object({ message: z.string() }),
});

function wrapper() {
  const client = createQueryClient();
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('server state on the typed endpoints', () => {
  it('a mutation refetches the queries of the endpoints it invalidates', async () => {
    const things = ['a'];
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/things/add') {
        things.push((JSON.parse(String(init?.body)) as { name: string }).name);
        return Response.json({ message: 'Added.' });
      }
      return Response.json(things);
    });
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderHook(
      () => ({ list: useEndpointQuery(list), add: useEndpointMutation(add, { invalidates: [list] }) }),
      { wrapper: wrapper() },
    );
    await waitFor(() => expect(result.current.list.data).toEqual(['a']));
    await act(() => result.current.add.mutateAsync({ body: { name: 'b' } }));
    await waitFor(() => expect(result.current.list.data).toEqual(['a', 'b']));
    expect(fetchMock.mock.calls.filter(([u]) => u === '/api/things')).toHaveLength(2);
  });

  it('does not retry a refused read (4xx), so its toast shows once', async () => {
    const fetchMock = vi.fn(async () => Response.json({ message: 'Not found.' }, { status: 404 }));
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderHook(() => useEndpointQuery(list), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
