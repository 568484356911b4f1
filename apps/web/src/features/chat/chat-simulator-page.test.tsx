/**
 * Chat Simulator: a posted message shows in Recent chat because the log refetches after the post
 * (invalidation), not because the page patches it in; the form empties for the next one.
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatLog, ChatLogEntry } from '@kickback/common/http/chat';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
vi.mock('../../shared/site-context', () => ({ useSite: () => ({ streamerName: 'Vex' }) }));

const { default: ChatSimulatorPage } = await import('./chat-simulator-page');

const entry = (content: string): ChatLogEntry => ({
  messageId: `m-${content}`,
  source: 'simulator',
  kickUserId: 'k1',
  kickUsername: 'vexfan',
  color: null,
  isSubscriber: false,
  content,
  sentAt: '2026-01-05T10:00:00.000Z',
  receivedAt: '2026-01-05T10:00:00.000Z',
  linkedUser: null,
  handledBy: null,
  replies: [],
  errors: [],
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Chat Simulator', () => {
  it('a posted message shows in Recent chat by refetching the log', async () => {
    const messages: ChatLogEntry[] = [];
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { content: string };
        messages.unshift(entry(body.content));
        return Response.json({ status: 200, entry: messages[0] });
      }
      expect(url).toBe('/api/admin/chat/messages');
      const log: ChatLog = { simulator: true, live: { isLive: false, changedAt: null }, messages, chatters: [] };
      return Response.json(log);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<ChatSimulatorPage />);
    expect(await screen.findByText('No chat messages yet.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Kick username'), { target: { value: 'vexfan' } });
    const message = screen.getByLabelText('Message') as HTMLTextAreaElement;
    fireEvent.change(message, { target: { value: '!points' } });
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Send to chat' })));
    const list = await screen.findByRole('list', { name: 'Recent chat messages' });
    expect(list.textContent).toContain('!points');
    expect(message.value).toBe('');
    expect(fetchMock.mock.calls.filter(([, i]) => i?.method === 'GET')).toHaveLength(2);
    expect(JSON.parse(String(fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')?.[1]?.body))).toEqual({
      username: 'vexfan',
      subscriber: false,
      content: '!points',
    });
  });

  it('keeps the form read-only while a message is sent, so the next one typed is not wiped by its answer', async () => {
    let answer!: () => void;
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        await new Promise<void>((resolve) => (answer = resolve));
        return Response.json({ status: 200, entry: entry('!join') });
      }
      const log: ChatLog = { simulator: true, live: { isLive: false, changedAt: null }, messages: [], chatters: [] };
      return Response.json(log);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<ChatSimulatorPage />);
    await screen.findByText('No chat messages yet.');
    fireEvent.change(screen.getByLabelText('Kick username'), { target: { value: 'vexfan' } });
    const message = screen.getByLabelText('Message') as HTMLTextAreaElement;
    fireEvent.change(message, { target: { value: '!join' } });
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Send to chat' })));
    const sender = screen.getByLabelText('Kick username') as HTMLInputElement;
    const badge = screen.getByLabelText('Subscriber badge') as HTMLInputElement;
    expect([message.readOnly, sender.readOnly, badge.disabled]).toEqual([true, true, true]);
    await act(async () => answer());
    expect(message.value).toBe('');
    expect(sender.value).toBe('vexfan');
    expect([message.readOnly, sender.readOnly, badge.disabled]).toEqual([false, false, false]);
  });
});
