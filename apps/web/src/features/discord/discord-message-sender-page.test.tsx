/**
 * The Discord sender's form, checked by the server's schema: sending with nothing names the message
 * and the audience at once, on their fields, and sends nothing; an audience switch settles the
 * audience; the message carries the server's limit with a counter; a field the server refuses is
 * marked on that field.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

const { toastError, toastSuccess } = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock('react-toastify', () => ({ toast: { error: toastError, success: toastSuccess } }));
vi.mock('../../shared/auth/auth-context', () => ({ useAuth: () => ({ user: { username: 'Admin' } }) }));

const { default: DiscordMessageSenderPage } = await import('./discord-message-sender-page');

const noAudience = 'Pick at least one user, or switch on an audience below.';

function fetchAnswering(send: (init?: RequestInit) => Response) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/Discord/sendmessage') return send(init);
    if (url === '/api/Discord/bot') return Response.json({ mode: 'simulator', inboxUrl: null });
    return Response.json([]);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
const sends = (fetchMock: ReturnType<typeof fetchAnswering>) =>
  fetchMock.mock.calls.filter(([url]) => url === '/api/Discord/sendmessage');

function open() {
  renderWithQueries(<DiscordMessageSenderPage />);
}

const messageBox = () => screen.getByLabelText('Message') as HTMLTextAreaElement;
const send = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Send' })));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toastError.mockReset();
  toastSuccess.mockReset();
});

describe('Send Discord Message form', () => {
  it('with nothing filled in names the message and the audience at once, and sends nothing', async () => {
    const fetchMock = fetchAnswering(() => Response.json({}));
    open();
    await send();
    expect(await screen.findByText('Enter a message.')).toBeTruthy();
    expect(screen.getByText(noAudience)).toBeTruthy();
    expect(messageBox().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('discord-message-error')?.textContent).toBe('Enter a message.');
    expect(document.getElementById('discord-users-error')?.textContent).toBe(noAudience);
    expect(sends(fetchMock)).toHaveLength(0);
    expect(toastError).not.toHaveBeenCalled();
  });

  it('clears each problem as it is fixed: typing the message, switching on an audience', async () => {
    fetchAnswering(() => Response.json({}));
    open();
    await send();
    expect(await screen.findByText(noAudience)).toBeTruthy();
    fireEvent.change(messageBox(), { target: { value: 'Stream in 10 minutes' } });
    await waitFor(() => expect(screen.queryByText('Enter a message.')).toBeNull());
    await act(async () => void fireEvent.click(screen.getByLabelText('All Discord Linked Users')));
    await waitFor(() => expect(screen.queryByText(noAudience)).toBeNull());
  });

  it("carries Discord's limit on the message, counts it, and refuses a longer one in plain words", async () => {
    fetchAnswering(() => Response.json({}));
    open();
    expect(messageBox().maxLength).toBe(2000);
    expect(screen.getByText('0 / 2000 characters')).toBeTruthy();
    fireEvent.change(messageBox(), { target: { value: 'm'.repeat(2001) } });
    expect(await screen.findByText('Keep the message to 2,000 characters or fewer.')).toBeTruthy();
    expect(screen.getByText('2001 / 2000 characters')).toBeTruthy();
  });

  it("puts the server's refusal on the field it names", async () => {
    const refusal = 'Keep the message to 2,000 characters or fewer.';
    const fetchMock = fetchAnswering(() =>
      Response.json({ message: refusal, fields: [{ path: 'message', message: refusal }] }, { status: 400 }),
    );
    open();
    fireEvent.change(messageBox(), { target: { value: 'Hello' } });
    await act(async () => void fireEvent.click(screen.getByLabelText('All Discord Linked Users')));
    await send();
    await waitFor(() => expect(sends(fetchMock)).toHaveLength(1));
    expect(JSON.parse(String(sends(fetchMock)[0]?.[1]?.body))).toMatchObject({
      message: 'Hello',
      userIds: [],
      isAllDiscordLinkedUsers: true,
    });
    expect(await screen.findByText(refusal, { selector: '#discord-message-error' })).toBeTruthy();
    expect(messageBox().getAttribute('aria-invalid')).toBe('true');
    expect(toastError).toHaveBeenCalledWith(refusal);
  });

  it('follows a running broadcast until it finishes, then says so and refetches the recent list', async () => {
    const id = '0b8f5a2e-2f7d-4a39-9b43-6a3f1f6b8a11';
    const base = {
      id,
      message: 'Stream in 10 minutes',
      total: 1,
      failedCount: 0,
      createdBy: 'Admin',
      createdAt: '2026-01-05T10:00:00.000Z',
      error: null,
      users: [],
      failed: [],
    };
    const running = { ...base, status: 'running', sentCount: 0, finishedAt: null };
    const done = { ...base, status: 'completed', sentCount: 1, finishedAt: '2026-01-05T10:00:01.000Z' };
    let finished = false;
    const fetchMock = vi.fn(async (url: string) => {
      if (url === '/api/Discord/sendmessage') return Response.json(running, { status: 202 });
      if (url === `/api/Discord/broadcasts/${id}`) {
        finished = true;
        return Response.json(done);
      }
      if (url === '/api/Discord/bot') return Response.json({ mode: 'simulator', inboxUrl: null });
      return Response.json(finished ? [done] : []);
    });
    vi.stubGlobal('fetch', fetchMock);
    open();
    expect(await screen.findByText('No messages sent yet.')).toBeTruthy();
    fireEvent.change(messageBox(), { target: { value: 'Stream in 10 minutes' } });
    await act(async () => void fireEvent.click(screen.getByLabelText('All Discord Linked Users')));
    await send();
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Message successfully sent.'), { timeout: 3000 });
    expect(await screen.findByText('1 sent')).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => url === `/api/Discord/broadcasts/${id}`)).toHaveLength(1);
  });
});
