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

const kickChat: IntegrationsOverview['kickChat'] = {
  mode: 'streamer',
  waiting: 0,
  sent: 12,
  merged: 30,
  dropped: 1,
  throttled: 2,
  failed: 1,
  pausedUntil: null,
  quotaUntil: null,
  lastError: 'send chat: Kick answered 500 (Internal Server Error)',
  lastErrorAt: '2026-01-05T10:00:00.000Z',
  hint: 'try-bot-account',
  intervalMs: 1500,
  burst: 3,
  maxAgeSeconds: 60,
  botAccount: { connected: false, kickUsername: null },
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
        kickChat,
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

  it("shows the bot messages' figures and the hint Kick's last refusal gives, and switches the posting mode", async () => {
    let mode: IntegrationsOverview['kickChat']['mode'] = 'streamer';
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      if (init?.method === 'PUT') {
        mode = (JSON.parse(String(init.body)) as { mode: typeof mode }).mode;
        return Response.json({ message: 'Bot messages now post with the bot account.' });
      }
      return Response.json({
        checkedAt: '2026-01-05T10:00:00.000Z',
        rows: [],
        kickBot: bot,
        kickLive: { isLive: null, title: null, changedAt: null },
        kickEvents: [],
        kickFeatures: [],
        kickChat: { ...kickChat, mode },
      } satisfies IntegrationsOverview);
    });
    vi.stubGlobal('fetch', fetchMock);
    render(
      <MemoryRouter>
        <QueryClientProvider client={createQueryClient()}>
          <IntegrationsPage />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect((await screen.findByTestId('kick-chat-hint')).textContent).toMatch(/separate bot account/);
    expect(screen.getByTestId('kick-chat-merged').textContent).toBe('30');
    expect(screen.getByTestId('kick-chat-throttled').textContent).toBe('2');
    expect(screen.queryByTestId('kick-chat-quota')).toBeNull();
    const botAccount = screen.getByRole('radio', { name: /A separate bot account/ });
    await act(async () => void fireEvent.click(botAccount));
    await vi.waitFor(() =>
      expect((screen.getByRole('radio', { name: /A separate bot account/ }) as HTMLInputElement).checked).toBe(true),
    );
    const put = fetchMock.mock.calls.find(([, i]) => i?.method === 'PUT');
    expect(put?.[0]).toBe('/api/admin/integrations/kick-chat/mode');
  });

  it("says when Kick's daily message quota paused the bot, with the lines kept and when it resumes", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({
          checkedAt: '2026-01-05T10:00:00.000Z',
          rows: [],
          kickBot: bot,
          kickLive: { isLive: null, title: null, changedAt: null },
          kickEvents: [],
          kickFeatures: [],
          kickChat: {
            ...kickChat,
            hint: null,
            waiting: 7,
            pausedUntil: '2026-01-05T23:30:00.000Z',
            quotaUntil: '2026-01-06T00:00:00.000Z',
            lastError: "Kick's daily chat-message limit reached: Daily chat message quota exceeded",
          },
        } satisfies IntegrationsOverview),
      ),
    );
    render(
      <MemoryRouter>
        <QueryClientProvider client={createQueryClient()}>
          <IntegrationsPage />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    const quota = await screen.findByTestId('kick-chat-quota');
    expect(quota.textContent).toMatch(
      /daily chat-message limit is reached: bot messages are paused and kept \(7 waiting\)/,
    );
    expect(quota.textContent).toContain('UTC, or sooner if the next try at');
  });

  it('reads the overview afresh on each visit', async () => {
    const fetchMock = vi.fn(async (_url: string) =>
      Response.json({
        checkedAt: '2026-01-05T10:00:00.000Z',
        rows: [],
        kickBot: bot,
        kickLive: { isLive: null, title: null, changedAt: null },
        kickEvents: [],
        kickFeatures: [],
        kickChat,
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
    // The overview's calls (the Discord server card, loaded beside it, reads its own).
    const overviewCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/admin/integrations'));
    await vi.waitFor(() => expect(overviewCalls()).toHaveLength(2));
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
          {
            type: 'moderation.banned',
            subscribed: true,
            subscription: 'ok',
            lastDeliveryAt: '2026-01-05T09:00:00.000Z',
            last24h: 1234,
          },
          { type: 'kicks.gifted', subscribed: false, subscription: 'ok', lastDeliveryAt: null, last24h: 0 },
          { type: 'chat.message.sent', subscribed: true, subscription: 'failing', lastDeliveryAt: null, last24h: 0 },
        ],
        kickFeatures: [
          { id: 'bans', label: 'Bans that count', scopes: ['moderation:ban'], missing: ['moderation:ban'] },
        ],
        kickChat,
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
    // While subscribing fails, a wanted event is not called subscribed.
    const row = (type: string) => document.querySelector(`tr[data-event="${type}"]`)?.textContent ?? '';
    expect(row('moderation.banned')).toContain('Yes');
    expect(row('chat.message.sent')).toContain('No (subscribing fails)');
    expect(row('chat.message.sent')).not.toContain('Yes');
    expect(screen.getByTestId('kick-missing-scopes').textContent).toContain('Bans that count');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Reconnect' })));
    expect(fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')?.[0]).toBe(
      '/api/admin/integrations/kick-bot/connect',
    );
  });
});
