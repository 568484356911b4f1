/**
 * The user pickers search through the query cache: two pickers on a page share one answer per
 * search, and a failed search is an empty list.
 */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const { UserMultiSelect, UserSelect } = await import('./user-select');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const vex = { value: 'u1', label: 'Vex', avatarUrl: null, kickUsername: 'vexfan', discordUsername: null };

describe('user pickers', () => {
  it('share one answer per search', async () => {
    const fetchMock = vi.fn(async () => Response.json([vex]));
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(
      <>
        <UserSelect inputId="one" value={null} onChange={vi.fn()} />
        <UserMultiSelect inputId="two" value={[]} onChange={vi.fn()} />
      </>,
    );
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 50));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getAllByText('Select...')).toHaveLength(2);
  });
});
