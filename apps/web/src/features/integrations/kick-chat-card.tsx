/**
 * Admin → Integrations → Bot messages: how the outgoing Kick chat queue posts (the streamer's own
 * account as type "bot", or a separate bot account as type "user"), its figures (waiting, sent,
 * merged, dropped, 429s, failed), its pace, what Kick's last refusal suggests doing, and a pause
 * for Kick's daily message quota (docs/features/kick-chat-queue.md#kicks-daily-message-quota).
 */
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { FaLink, FaLinkSlash } from 'react-icons/fa6';
import { KICK_CHAT_HINTS, type KickChatMode, type KickChatQueue } from '@kickback/common/http/integrations';
import { useConnectKickBotAccount, useDisconnectKickBotAccount, useSetKickChatMode } from './api';

const modes: Array<{ mode: KickChatMode; label: string; help: string }> = [
  {
    mode: 'streamer',
    label: "The streamer's own account",
    help: 'Posts as type "bot" with the Kick bot connected above (the streamer\'s account).',
  },
  {
    mode: 'bot-account',
    label: 'A separate bot account',
    help: 'Posts as type "user" into the streamer\'s channel with the bot account connected here.',
  },
];

const figures: Array<{ key: keyof KickChatQueue; label: string }> = [
  { key: 'waiting', label: 'Waiting' },
  { key: 'sent', label: 'Sent' },
  { key: 'merged', label: 'Merged' },
  { key: 'dropped', label: 'Dropped (too old)' },
  { key: 'throttled', label: '429s' },
  { key: 'failed', label: 'Failed' },
];

export function KickChatCard({ chat }: { chat: KickChatQueue }) {
  const setMode = useSetKickChatMode();
  const connect = useConnectKickBotAccount();
  const disconnect = useDisconnectKickBotAccount();
  const busy = setMode.isPending || connect.isPending || connect.isSuccess || disconnect.isPending;
  const choose = (mode: KickChatMode) =>
    setMode.mutate({ body: { mode } }, { onSuccess: (r) => toast.success(r.message) });
  return (
    <section className="kb-card mb-4" aria-labelledby="kb-kick-chat-title">
      <h2 id="kb-kick-chat-title" className="h5 mb-2">
        Bot messages
      </h2>
      <p className="small text-body-secondary mb-3">
        Every bot message waits in one queue and goes out at most one every {(chat.intervalMs / 1000).toFixed(1)} s
        (bursts of {chat.burst}); acknowledgements waiting together are merged into one message, and those older than{' '}
        {chat.maxAgeSeconds} s are dropped from chat (the bet or guess itself stands).
      </p>
      {chat.quotaUntil && (
        <Alert variant="warning" className="py-2" data-testid="kick-chat-quota">
          Kick's daily chat-message limit is reached: bot messages are paused and kept ({chat.waiting} waiting), not
          failed. They resume at {new Date(chat.quotaUntil).toLocaleString([], { timeZone: 'UTC' })} UTC
          {chat.pausedUntil && chat.pausedUntil !== chat.quotaUntil
            ? `, or sooner if the next try at ${new Date(chat.pausedUntil).toLocaleTimeString()} goes through`
            : ''}
          .
        </Alert>
      )}
      {chat.hint && (
        <Alert variant="warning" className="py-2" data-testid="kick-chat-hint">
          {KICK_CHAT_HINTS[chat.hint]}
        </Alert>
      )}
      <dl className="kb-chat-figures d-flex flex-wrap gap-4 mb-3" aria-label="Bot message figures">
        {figures.map((f) => (
          <div key={f.key}>
            <dt className="small text-body-secondary fw-normal">{f.label}</dt>
            <dd className="h5 mb-0" data-testid={`kick-chat-${f.key}`}>
              {String(chat[f.key])}
            </dd>
          </div>
        ))}
      </dl>
      {chat.lastError && <p className="small text-danger">Last error: {chat.lastError}</p>}
      <fieldset className="mb-3" disabled={busy}>
        <legend className="h6">Post bot messages with</legend>
        {modes.map((m) => (
          <Form.Check
            key={m.mode}
            type="radio"
            id={`kick-chat-mode-${m.mode}`}
            name="kick-chat-mode"
            checked={chat.mode === m.mode}
            onChange={() => choose(m.mode)}
            label={
              <>
                {m.label} <span className="small text-body-secondary">— {m.help}</span>
              </>
            }
          />
        ))}
      </fieldset>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <span className="me-2">
          Bot account:{' '}
          <strong data-testid="kick-bot-account">
            {chat.botAccount.connected ? chat.botAccount.kickUsername : 'not connected'}
          </strong>
        </span>
        <Button
          variant="primary"
          size="sm"
          disabled={busy}
          onClick={() => connect.mutate({}, { onSuccess: ({ url }) => window.location.assign(url) })}
        >
          <FaLink aria-hidden className="me-2" />
          {chat.botAccount.connected ? 'Reconnect bot account' : 'Connect bot account'}
        </Button>
        {chat.botAccount.connected && (
          <Button variant="danger" size="sm" disabled={busy} onClick={() => disconnect.mutate({})}>
            <FaLinkSlash aria-hidden className="me-2" />
            Disconnect bot account
          </Button>
        )}
      </div>
    </section>
  );
}
