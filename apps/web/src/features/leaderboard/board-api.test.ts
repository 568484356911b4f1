import { afterEach, describe, expect, it, vi } from 'vitest';

const toastError = vi.fn();
vi.mock('react-toastify', () => ({ toast: { error: toastError, success: vi.fn() } }));

const board = {
  data: [],
  rewards: [{ rank: 1, reward: 10, rewardBonus: null }],
  type: 'now',
  countdown: { startDate: '2026-03-02T00:00:00.000Z', endDate: '2026-03-09T00:00:00.000Z' },
  period: { startDate: '2026-03-02T00:00:00.000Z', endDate: '2026-03-09T00:00:00.000Z' },
  rewardUnit: 'USD',
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
  toastError.mockClear();
});

describe('leaderboard loading', () => {
  it('caches a board after the first load', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(board), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const { loadBoard, peek } = await import('./board-api');
    const first = await loadBoard(6, 'now').next;
    expect(first.rewards).toHaveLength(1);
    expect(fetchMock).toHaveBeenCalledWith('/api/LeaderBoard/roobet/now', expect.anything());
    const again = loadBoard(6, 'now');
    expect(again.now).toEqual(first);
    await again.next;
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(peek('/api/LeaderBoard/roobet/now')).toEqual(first);
  });

  it('a failed load is silent and gives an empty list', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"message":"down"}', { status: 503 })),
    );
    const { loadBoard } = await import('./board-api');
    const result = await loadBoard(1, 'previous').next;
    expect(result.data).toEqual([]);
    expect(result.type).toBe('previous');
    expect(toastError).not.toHaveBeenCalled();

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    expect((await loadBoard(3, 'now').next).data).toEqual([]);
    expect(toastError).not.toHaveBeenCalled();
  });
});
