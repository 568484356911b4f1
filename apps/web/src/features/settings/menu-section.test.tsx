/**
 * Admin → Settings → Menu: Up and Down reorder by keyboard (the moved button keeps the focus), the
 * switch hides a feature, and Save sends the whole list in its new order.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultMenu } from '@kickback/common/site-menu';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
const site = { menu: defaultMenu.map((e) => ({ ...e })) };
vi.mock('../../shared/site-context', () => ({ useSite: () => site }));

const { default: MenuSection } = await import('./menu-section');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const order = () => screen.getAllByRole('listitem').map((li) => li.getAttribute('data-testid'));

describe('Admin → Settings → Menu', () => {
  it('moves a feature up with the keyboard, keeps the focus on it, hides one, and saves the list', async () => {
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) =>
      Response.json({
        message: 'Settings successfully updated.',
        site: { ...site, menu: JSON.parse(String(init?.body)).menu },
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<MenuSection />);
    expect(order().slice(7, 9)).toEqual(['menu-live', 'menu-raffles']);
    expect(within(screen.getByTestId('menu-raffles')).getByText('Under More')).toBeTruthy();

    const up = screen.getByRole('button', { name: 'Move Raffles up' });
    up.focus();
    fireEvent.click(up); // Enter or Space on a focused button clicks it
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Raffles up' })));
    fireEvent.click(document.activeElement!);
    expect(order().slice(5, 9)).toEqual(['menu-roobet-vip', 'menu-raffles', 'menu-hunt', 'menu-live']);
    expect(within(screen.getByTestId('menu-raffles')).getByText('In the header bar')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Move Home up' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('switch', { name: 'Shown: Battles' }));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Save menu' })));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/admin/site/menu');
    expect(init?.method).toBe('PUT');
    const sent = JSON.parse(String(init?.body)).menu as { id: string; shown: boolean }[];
    expect(sent.map((e) => e.id).slice(5, 9)).toEqual(['roobet-vip', 'raffles', 'hunt', 'live']);
    expect(sent.find((e) => e.id === 'battles')).toEqual({ id: 'battles', shown: false });
    expect(sent.filter((e) => !e.shown)).toHaveLength(1);
  });
});
