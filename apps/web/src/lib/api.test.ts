import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

const toastError = vi.fn();
vi.mock('react-toastify', () => ({ toast: { error: (m: string) => toastError(m) } }));

const { api, ApiError } = await import('./api');
const { defineEndpoint } = await import('@kickback/common/http/endpoint');

function respond(status: number, body: string, contentType = 'application/json') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body, { status, headers: { 'content-type': contentType } })),
  );
}

beforeEach(() => toastError.mockReset());
afterEach(() => vi.unstubAllGlobals());

describe('the API wrapper (docs/product.md#site-errors-and-toasts)', () => {
  it('sends the CSRF header and JSON body, and returns the parsed answer', async () => {
    respond(200, JSON.stringify({ message: 'ok' }));
    const result = await api('/auth/x', { method: 'POST', body: { a: 1 }, schema: z.object({ message: z.string() }) });
    expect(result).toEqual({ message: 'ok' });
    const [, init] = vi.mocked(fetch).mock.calls[0] as [string, RequestInit];
    expect(init.headers).toMatchObject({ 'X-Requested-With': 'kickback', 'Content-Type': 'application/json' });
    expect(init.body).toBe('{"a":1}');
  });

  it('rejects 401 as "Authorization error." without a toast', async () => {
    respond(401, JSON.stringify({ message: 'Sign in required.' }));
    await expect(api('/auth/x')).rejects.toThrow('Authorization error.');
    expect(toastError).not.toHaveBeenCalled();
  });

  it('toasts the body message of other failures and rejects as "Handled api error."', async () => {
    respond(409, JSON.stringify({ message: 'Not enough points.' }));
    const err = await api('/auth/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as Error).message).toBe('Handled api error.');
    // The toast library loads with the first toast (src/lib/toast.ts).
    await vi.waitFor(() => expect(toastError).toHaveBeenCalledWith('Not enough points.'));
  });

  it('falls back to "System error." when the body is not JSON or has no message', async () => {
    respond(500, '<html>oops</html>', 'text/html');
    await expect(api('/auth/x')).rejects.toThrow('Handled api error.');
    expect(toastError).toHaveBeenLastCalledWith('System error.');
    respond(502, JSON.stringify({ error: 'x' }));
    await expect(api('/auth/x')).rejects.toThrow('Handled api error.');
    expect(toastError).toHaveBeenLastCalledWith('System error.');
  });

  it('calls an endpoint by its definition: params fill the path, query and body are sent, the answer parsed', async () => {
    const rename = defineEndpoint({
      method: 'PUT',
      path: '/api/things/:id/name',
      access: 'admin',
      params: z.object({ id: z.coerce.number() }),
      query: z.object({ dry: z.string().optional(), page: z.coerce.number().default(1) }),
      body: z.object({ name: z.string() }),
      response: z.object({ id: z.number(), name: z.string() }),
    });
    respond(200, JSON.stringify({ id: 7, name: 'a b', extra: 1 }));
    const result = await api(rename, { params: { id: 7 }, query: { page: 2 }, body: { name: 'a b' } });
    expect(result).toEqual({ id: 7, name: 'a b' });
    const [url, init] = vi.mocked(fetch).mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/things/7/name?page=2');
    expect(init.method).toBe('PUT');
    expect(init.body).toBe('{"name":"a b"}');

    // Types: params and body are required and typed by the definition.
    // @ts-expect-error -- no params
    void api(rename, { body: { name: 'x' } }).catch(() => undefined);
    // @ts-expect-error -- body of the wrong shape
    void api(rename, { params: { id: 1 }, body: { title: 'x' } }).catch(() => undefined);
    const answer: { id: number; name: string } = result;
    expect(answer.id).toBe(7);
  });

  it('encodes path parameters and refuses a call that leaves one out', async () => {
    const get = defineEndpoint({
      method: 'GET',
      path: '/api/rolls/:rollId',
      access: 'visitor',
      params: z.object({ rollId: z.string() }),
      response: z.unknown(),
    });
    respond(200, '{}');
    await api(get, { params: { rollId: 'a/b c' } });
    expect(vi.mocked(fetch).mock.calls[0]?.[0]).toBe('/api/rolls/a%2Fb%20c');
    await expect(api(get, { params: {} as { rollId: string } })).rejects.toThrow(/missing path parameter rollId/);
  });

  it('takes no /api path by hand: those go through their definition', () => {
    // @ts-expect-error -- an /api path is called by its endpoint definition, never as a string
    const call = () => api('/api/Product/GetProducts');
    expect(typeof call).toBe('function');
  });
});

describe('readErrorBody', () => {
  it('accepts and refuses exactly what the shared errorBody schema does', async () => {
    const { readErrorBody } = await import('./api');
    const { errorBody } = await import('@kickback/common/http/errors');
    const samples: unknown[] = [
      { message: 'Not found.' },
      { message: 'Check the form.', fields: [{ path: 'title', message: 'Required.' }] },
      { message: 'x', fields: [] },
      { message: 'x', fields: [{ path: 'a' }] },
      { message: 'x', fields: 'title' },
      { message: 3 },
      { error: 'x' },
      null,
      'text',
      [],
    ];
    for (const sample of samples) {
      const parsed = errorBody.safeParse(sample);
      expect(readErrorBody(sample), JSON.stringify(sample)).toEqual(parsed.success ? parsed.data : null);
    }
  });
});
