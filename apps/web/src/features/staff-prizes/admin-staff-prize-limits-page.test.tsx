/**
 * Staff prize limits page: shows the limits and today's total, checks the form as the admin types
 * (the API's schema), and saves through the API.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

const { toastError, toastSuccess } = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock('react-toastify', () => ({ toast: { error: toastError, success: toastSuccess } }));

const { default: AdminStaffPrizeLimitsPage } = await import('./admin-staff-prize-limits-page');
const { MemoryRouter } = await import('react-router');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Staff prize limits', () => {
  it('shows the limits and today’s total, refuses a per-event limit above the per-day one, saves', async () => {
    let limits = {
      perEvent: 10000,
      perDay: 50000,
      paidToday: 1250,
      updatedBy: null,
      updatedAt: '2026-01-05T10:00:00Z',
    };
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as { perEvent: string; perDay: string };
        limits = {
          ...limits,
          perEvent: Number(body.perEvent),
          perDay: Number(body.perDay),
          updatedBy: 'Host',
        } as never;
        return Response.json({ message: 'Staff prize limits saved.', limits });
      }
      return Response.json(limits);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(
      <MemoryRouter>
        <AdminStaffPrizeLimitsPage />
      </MemoryRouter>,
    );
    expect(await screen.findByText('1,250 points')).toBeTruthy();
    const perEvent = screen.getByLabelText(/one event/);
    expect((perEvent as HTMLInputElement).value).toBe('10000');
    fireEvent.change(perEvent, { target: { value: '60000' } });
    expect(await screen.findByText('The per-event limit cannot be above the per-day limit.')).toBeTruthy();
    fireEvent.change(perEvent, { target: { value: '2500' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(false));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Staff prize limits saved.'));
    const put = fetchMock.mock.calls.find(([, i]) => i?.method === 'PUT');
    expect(put?.[0]).toBe('/api/admin/staff-prize-limits');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ perEvent: '2500', perDay: '50000' });
  });
});
