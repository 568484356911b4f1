/**
 * The profile's partner ids: each id is checked by its own rule as it is typed (a Clash id of "-5"
 * is refused; -1 is the boards' "none"), the input stops at the server's limit, and an id the
 * server refuses is marked on its field.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthUser } from '@kickback/common/http/auth';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
vi.mock('../../shared/auth/auth-context', () => ({ useAuth: () => ({ refreshUser: vi.fn(async () => null) }) }));

const { PartnerIdsForm } = await import('./partner-ids-form');

const user = {
  clashId: null,
  rustMagicId: null,
  roobetName: 'Before',
  casesId: null,
} as unknown as AuthUser;

function fetchAnswering(ids: (init?: RequestInit) => Response) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) =>
    url === '/api/User/ids' ? ids(init) : Response.json({ links: [], disputes: [] }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function open() {
  renderWithQueries(<PartnerIdsForm user={user} />);
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const clash = 'Enter your Clash.gg user number (a whole number from 1, like 4242) or your Clash.gg username.';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('partner ids form', () => {
  it('refuses a Clash id of "-5" as it is typed, and does not send it', async () => {
    const fetchMock = fetchAnswering(() => Response.json({ message: 'Settings successfully updated.' }));
    open();
    fireEvent.change(input('Clash ID'), { target: { value: '-5' } });
    expect(await screen.findByText(clash)).toBeTruthy();
    expect(input('Clash ID').getAttribute('aria-invalid')).toBe('true');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/User/ids')).toHaveLength(0);
    fireEvent.change(input('Clash ID'), { target: { value: '4242' } });
    await waitFor(() => expect(screen.queryByText(clash)).toBeNull());
  });

  it('carries the server limit on every input', () => {
    fetchAnswering(() => Response.json({ message: 'ok' }));
    open();
    for (const label of ['Roobet username', 'Clash ID', 'RustMagic ID', 'Cases ID']) {
      expect(input(label).maxLength).toBe(64);
    }
  });

  it("puts the server's refusal on the field it names", async () => {
    fetchAnswering(() =>
      Response.json(
        {
          message: 'That Roobet username is already linked to another account.',
          fields: [{ path: 'RoobetName', message: 'That Roobet username is already linked to another account.' }],
        },
        { status: 409 },
      ),
    );
    open();
    fireEvent.change(input('Roobet username'), { target: { value: 'HighRoller' } });
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false),
    );
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(await screen.findByText('That Roobet username is already linked to another account.')).toBeTruthy();
    expect(input('Roobet username').getAttribute('aria-invalid')).toBe('true');
  });
});
