import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

const toastError = vi.fn();
vi.mock('react-toastify', () => ({ toast: { error: (m: string) => toastError(m) } }));

const { api, ApiError } = await import('./api');

function respond(status: number, body: string, contentType = 'application/json') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body, { status, headers: { 'content-type': contentType } })),
  );
}

beforeEach(() => toastError.mockReset());
afterEach(() => vi.unstubAllGlobals());

describe('the API wrapper (spec part 1 §8)', () => {
  it('sends the CSRF header and JSON body, and returns the parsed answer', async () => {
    respond(200, JSON.stringify({ message: 'ok' }));
    const result = await api('/api/x', { method: 'POST', body: { a: 1 }, schema: z.object({ message: z.string() }) });
    expect(result).toEqual({ message: 'ok' });
    const [, init] = vi.mocked(fetch).mock.calls[0] as [string, RequestInit];
    expect(init.headers).toMatchObject({ 'X-Requested-With': 'kickback', 'Content-Type': 'application/json' });
    expect(init.body).toBe('{"a":1}');
  });

  it('rejects 401 as "Authorization error." without a toast', async () => {
    respond(401, JSON.stringify({ message: 'Sign in required.' }));
    await expect(api('/api/x')).rejects.toThrow('Authorization error.');
    expect(toastError).not.toHaveBeenCalled();
  });

  it('toasts the body message of other failures and rejects as "Handled api error."', async () => {
    respond(409, JSON.stringify({ message: 'Not enough points.' }));
    const err = await api('/api/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as Error).message).toBe('Handled api error.');
    expect(toastError).toHaveBeenCalledWith('Not enough points.');
  });

  it('falls back to "System error." when the body is not JSON or has no message', async () => {
    respond(500, '<html>oops</html>', 'text/html');
    await expect(api('/api/x')).rejects.toThrow('Handled api error.');
    expect(toastError).toHaveBeenLastCalledWith('System error.');
    respond(502, JSON.stringify({ error: 'x' }));
    await expect(api('/api/x')).rejects.toThrow('Handled api error.');
    expect(toastError).toHaveBeenLastCalledWith('System error.');
  });
});
