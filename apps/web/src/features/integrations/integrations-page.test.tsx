/**
 * Integrations: disconnecting the Kick bot refetches the overview (invalidation), so the card says
 * it is not connected without a reload; and each visit reads the overview afresh.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IntegrationsOverview } from '@kickback/common/http/integrations';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const { default: IntegrationsPage } = await import('./integrations-page');
const { createQueryClient } = await import('../../lib/query');

const bot: IntegrationsOverview['kickBot'] = {
  mode: 'simulated',
  connected: true,
  kickUsername: 'streamer',
  scope: 'chat:write',
  expiresAt: '2026-01-05T12:00:00.000Z',
  connectedAt: '2026-01-05T10:00:00.000Z',
  refreshedAt: null,
  refreshCount: 0,
  lastError: null,
  lastErrorAt: null,
  cannotConnect: null,
  tokenKeySource: null,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Integrations', () => {
  it('disconnecting the Kick bot refetches the overview', async () => {
    let connected = true;
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      if (init?.method === 'DELETE') {
        connected = false;
        return Response.json({ message: 'Kick bot disconnected.' });
      }
      const overview: IntegrationsOverview = {
        checkedAt: '2026-01-05T10:00:00.000Z',
        rows: [],
        kickBot: connected ? bot : { ...bot, connected: false, kickUsername: null },
        kickLive: { isLive: null, title: null, changedAt: null },
        kickEvents: [],
        kickFeatures: [],
      };
      return Response.json(overview);
    });
    vi.stubGlobal('fetch', fetchMock);
    render(
      <MemoryRouter>
        <QueryClientProvider client={createQueryClient()}>
          <IntegrationsPage />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect((await screen.findByTestId('kick-bot-user')).textContent).toBe('streamer');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Disconnect' })));
    expect(await screen.findByText('Not connected: replies are only written to the log.')).toBeTruthy();
    expect(fetchMock.mock.calls.find(([, i]) => i?.method === 'DELETE')?.[0]).toBe('/api/admin/integrations/kick-bot');
  });

  it('reads the overview afresh on each visit', async () => {
    const fetchMock = vi.fn(async () =>
      Response.json({
        checkedAt: '2026-01-05T10:00:00.000Z',
        rows: [],
        kickBot: bot,
        kickLive: { isLive: null, title: null, changedAt: null },
        kickEvents: [],
        kickFeatures: [],
      } satisfies IntegrationsOverview),
    );
    vi.stubGlobal('fetch', fetchMock);
    const client = createQueryClient();
    const visit = () =>
      render(
        <MemoryRouter>
          <QueryClientProvider client={client}>
            <IntegrationsPage />
          </QueryClientProvider>
        </MemoryRouter>,
      );
    visit();
    await screen.findByTestId('kick-bot-user');
    cleanup();
    visit();
    await screen.findByTestId('kick-bot-user');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });

  it('shows each Kick event with its 24-hour count, and a feature whose scope the token lacks with Reconnect', async () => {
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      if (init?.method === 'POST') return Response.json({ url: 'https://id.kick.com/oauth/authorize?x=1' });
      return Response.json({
        checkedAt: '2026-01-05T10:00:00.000Z',
        rows: [],
        kickBot: bot,
        kickLive: { isLive: null, title: null, changedAt: null },
        kickEvents: [
          { type: 'moderation.banned', subscribed: true, lastDeliveryAt: '2026-01-05T09:00:00.000Z', last24h: 1234 },
          { type: 'kicks.gifted', subscribed: false, lastDeliveryAt: null, last24h: 0 },
        ],
        kickFeatures: [
          { id: 'bans', label: 'Bans that count', scopes: ['moderation:ban'], missing: ['moderation:ban'] },
        ],
      } satisfies IntegrationsOverview);
    });
    vi.stubGlobal('fetch', fetchMock);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    render(
      <MemoryRouter>
        <QueryClientProvider client={createQueryClient()}>
          <IntegrationsPage />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect((await screen.findByTestId('count-moderation.banned')).textContent).toBe((1234).toLocaleString());
    expect(screen.getByText('No (feature off)')).toBeTruthy();
    expect(screen.getByTestId('kick-missing-scopes').textContent).toContain('Bans that count');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Reconnect' })));
    expect(fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')?.[0]).toBe(
      '/api/admin/integrations/kick-bot/connect',
    );
  });
});
