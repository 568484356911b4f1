/**
 * The public boards' client behaviour: a board is cached after its first load (a second view shows
 * it at once, without a request), and a failed load is silent and gives an empty list, at once
 * (no retry).
 */
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const toastError = vi.fn();
vi.mock('react-toastify', () => ({ toast: { error: toastError, success: vi.fn() } }));

const { useBoard } = await import('./board-api');
const { createQueryClient } = await import('../../lib/query');

const board = {
  data: [],
  rewards: [{ rank: 1, reward: 10, rewardBonus: null }],
  type: 'now',
  countdown: { startDate: '2026-03-02T00:00:00.000Z', endDate: '2026-03-09T00:00:00.000Z' },
  period: { startDate: '2026-03-02T00:00:00.000Z', endDate: '2026-03-09T00:00:00.000Z' },
  rewardUnit: 'USD',
};

const wrapper =
  (client: QueryClient) =>
  ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;

afterEach(() => {
  vi.unstubAllGlobals();
  toastError.mockClear();
});

describe('leaderboard loading', () => {
  it('caches a board after the first load', async () => {
    const fetchMock = vi.fn(async () => Response.json(board));
    vi.stubGlobal('fetch', fetchMock);
    const client = createQueryClient();
    const first = renderHook(() => useBoard(6, 'now'), { wrapper: wrapper(client) });
    await waitFor(() => expect(first.result.current?.rewards).toHaveLength(1));
    expect(fetchMock).toHaveBeenCalledWith('/api/LeaderBoard/roobet/now', expect.anything());
    first.unmount();
    const again = renderHook(() => useBoard(6, 'now'), { wrapper: wrapper(client) });
    expect(again.result.current?.rewards).toHaveLength(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('a failed load is silent and gives an empty list', async () => {
    const down = vi.fn(async () => Response.json({ message: 'down' }, { status: 503 }));
    vi.stubGlobal('fetch', down);
    const failed = renderHook(() => useBoard(1, 'previous'), { wrapper: wrapper(createQueryClient()) });
    await waitFor(() => expect(failed.result.current).toBeDefined());
    expect(failed.result.current?.data).toEqual([]);
    expect(failed.result.current?.type).toBe('previous');
    expect(down).toHaveBeenCalledTimes(1);
    expect(toastError).not.toHaveBeenCalled();

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    const offline = renderHook(() => useBoard(3, 'now'), { wrapper: wrapper(createQueryClient()) });
    await waitFor(() => expect(offline.result.current?.data).toEqual([]));
    expect(toastError).not.toHaveBeenCalled();
  });
});
