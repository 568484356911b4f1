/**
 * Settings → Integrations: secrets shown only as "set · last 4", an environment value read-only, an
 * empty field left out of the change, and a refused value marked on its field.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
const { default: IntegrationSettingsSection } = await import('./integration-settings-section');

const view = {
  fields: [
    { name: 'KICK_CLIENT_ID', group: 'Kick', label: 'Kick app client id', secret: false, source: 'none', shown: null },
    {
      name: 'KICK_CLIENT_SECRET',
      group: 'Kick',
      label: 'Kick app client secret',
      secret: true,
      source: 'site',
      shown: 'set · …9f3a',
    },
    {
      name: 'CLASH_API_KEY',
      group: 'Partners',
      label: 'Clash.gg API key',
      secret: true,
      source: 'env',
      shown: 'set · …AAAA',
    },
  ],
  secretKey: { source: 'data folder', where: '/srv/data/secret.key' },
  otherKeys: [{ name: 'CODE_ENCRYPTION_KEY', state: 'not set' }],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Settings → Integrations', () => {
  it('shows last 4 and env fields read-only; sends only what was typed; marks a refused field', async () => {
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      if (init?.method === 'PUT') {
        return Response.json(
          {
            message: 'Invalid KICK_CLIENT_ID.',
            fields: [{ path: 'KICK_CLIENT_ID', message: 'KICK_CLIENT_SECRET is required when KICK_CLIENT_ID is set' }],
          },
          { status: 400 },
        );
      }
      return Response.json(view);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<IntegrationSettingsSection />);
    expect(await screen.findByText('set · …9f3a')).toBeTruthy();
    expect(screen.getByText('Set by the server environment (set · …AAAA)')).toBeTruthy();
    expect((screen.getByLabelText('Clash.gg API key') as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Kick app client id'), { target: { value: 'abc123' } });
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Save integrations' })));
    await waitFor(() => expect(screen.getByLabelText('Kick app client id').getAttribute('aria-invalid')).toBe('true'));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ KICK_CLIENT_ID: 'abc123' });
  });

  it('a saved key that does not open with this server\'s key is said so (not "Not set"), with Clear', async () => {
    const unreadable = {
      ...view,
      fields: [{ ...view.fields[1], source: 'unreadable', shown: null }],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(unreadable)),
    );
    renderWithQueries(<IntegrationSettingsSection />);
    expect(
      await screen.findByText("Saved, but it does not open with this server's encryption key, so it is not used"),
    ).toBeTruthy();
    expect(screen.queryByText('Not set')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('/srv/data/secret.key');
    expect(screen.getByRole('button', { name: 'Clear Kick app client secret' })).toBeTruthy();
  });
});
