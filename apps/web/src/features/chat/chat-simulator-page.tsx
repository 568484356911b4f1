/**
 * Admin: Chat Simulator. Post in the streamer's chat as any Kick user (subscriber or not); the
 * message is signed like a Kick webhook and goes through the real pipeline. Below, the recent chat
 * and what the pipeline did with each message (linked site user, command, replies). The stream's
 * live state (chat-activity points are earned only while live) is shown, and the simulator can
 * send Kick's "went live" / "ended" event, and every other Kick event (./simulate-events-card).
 */
import { useRef, useState, type FormEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { toast } from 'react-toastify';
import { FaPaperPlane, FaReply, FaUserCheck, FaTriangleExclamation } from 'react-icons/fa6';
import { CHAT_MESSAGE_MAX_LENGTH, type ChatLog, type ChatLogEntry } from '@kickback/common/http/chat';
import { useSite } from '../../shared/site-context';
import { useChatLog, useSimulateChat, useSimulateLive } from './api';
import { StreamStateBadge } from '../../components/ui/stream-state-badge';
import { SimulateEventsCard } from './simulate-events-card';
import './chat-simulator.css';

const emptyLog: ChatLog = { simulator: false, live: { isLive: null, changedAt: null }, messages: [], chatters: [] };
const USERNAME = /^[A-Za-z0-9_]{2,25}$/;

function time(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

function sourceLabel(source: string): string {
  return source === 'simulator' ? 'simulator' : source === 'kick-websocket' ? 'Kick chat' : 'Kick webhook';
}

function ChatLine({ entry }: { entry: ChatLogEntry }) {
  return (
    <li className="kb-chat-line">
      <div className="d-flex flex-wrap align-items-baseline gap-2">
        <span className="kb-chat-time">{time(entry.receivedAt)}</span>
        <span className="kb-chat-dot" style={{ background: entry.color ?? '#888' }} aria-hidden />
        {entry.isSubscriber && (
          <Badge bg="success" className="kb-chat-sub">
            Sub
          </Badge>
        )}
        <strong>{entry.kickUsername}</strong>
        <span className="kb-chat-content text-break">{entry.content}</span>
      </div>
      <div className="kb-chat-outcome">
        <span className="text-body-secondary">{sourceLabel(entry.source)}</span>
        {entry.linkedUser ? (
          <span>
            <FaUserCheck aria-hidden className="me-1" />
            site user {entry.linkedUser.username}
          </span>
        ) : (
          <span className="text-body-secondary">no linked site user</span>
        )}
        {entry.handledBy ? (
          <span>
            command <code>{entry.handledBy}</code>
          </span>
        ) : (
          <span className="text-body-secondary">no command</span>
        )}
        {entry.errors.map((e) => (
          <span key={e} className="text-warning">
            <FaTriangleExclamation aria-hidden className="me-1" />
            {e} failed
          </span>
        ))}
      </div>
      {entry.replies.map((reply, i) => (
        <div key={i} className="kb-chat-reply">
          <FaReply aria-hidden className="me-2" />
          <span className="text-break">{reply}</span>
        </div>
      ))}
    </li>
  );
}

export default function ChatSimulatorPage() {
  const site = useSite();
  const chatLog = useChatLog();
  // A log that cannot be read (the API wrapper said why) shows as an empty one.
  const log: ChatLog | null = chatLog.data ?? (chatLog.isError ? emptyLog : null);
  const simulateChat = useSimulateChat();
  const simulateLive = useSimulateLive();
  const [username, setUsername] = useState('');
  const [subscriber, setSubscriber] = useState(false);
  const [moderator, setModerator] = useState(false);
  const [content, setContent] = useState('');
  /**
   * A message is being sent: the form (sender, badge, message) is read-only until its answer, which
   * empties the box. Typing the next message meanwhile would otherwise be wiped by the answer to the
   * one before, and a sender changed meanwhile was seen lost in a browser run (the next message
   * then went out under the previous name).
   */
  const [sending, setSending] = useState(false);
  const pending = simulateChat.isPending || simulateLive.isPending;
  const messageRef = useRef<HTMLTextAreaElement>(null);

  const nameProblem = username !== '' && !USERNAME.test(username.trim());
  const canSend = !pending && USERNAME.test(username.trim()) && content.trim() !== '' && log?.simulator === true;

  const toggleLive = async () => {
    if (!log || pending) return;
    try {
      const result = await simulateLive.mutateAsync({ body: { isLive: !log.live.isLive } });
      if (result.status !== 200) toast.error(`The webhook refused the live state (HTTP ${result.status}).`);
    } catch {
      // shown by the API wrapper
    }
  };

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    setSending(true);
    try {
      const result = await simulateChat.mutateAsync({
        body: {
          username: username.trim(),
          subscriber,
          ...(moderator ? { badges: ['moderator' as const] } : {}),
          content: content.trim(),
        },
      });
      if (result.status !== 200 || !result.entry) {
        toast.error(`The webhook refused the message (HTTP ${result.status}).`);
      } else {
        setContent('');
      }
    } catch {
      // shown by the API wrapper
    } finally {
      setSending(false); // in the same render as the emptied box
      messageRef.current?.focus();
    }
  };

  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1">Chat Simulator</h1>
      <p className="text-body-secondary mb-4">
        Post in {site.streamerName}&apos;s Kick chat as any Kick user. Messages are signed like Kick&apos;s webhooks and
        take the same path: signature check, activity, account links, commands such as <code>!verify</code>. Linked
        chatters earn chat-activity points only while the stream is live.
      </p>
      {log && (
        <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
          <StreamStateBadge live={log.live} />
          {log.simulator && (
            <Button size="sm" variant="outline-light" disabled={pending} onClick={() => void toggleLive()}>
              {log.live.isLive ? 'End the stream' : 'Go live'}
            </Button>
          )}
        </div>
      )}
      <div className="row g-4">
        <div className="col-lg-4">
          <div className="kb-card">
            <h2 className="h6 mb-3">Post as a Kick user</h2>
            {log && !log.simulator ? (
              <p className="mb-0 text-body-secondary">
                The chat simulator is off on this server: the chat below comes from Kick.
              </p>
            ) : (
              <Form onSubmit={(e) => void send(e)}>
                <Form.Group controlId="kb-sim-username" className="mb-3">
                  <Form.Label>Kick username</Form.Label>
                  <Form.Control
                    value={username}
                    readOnly={sending}
                    onChange={(e) => setUsername(e.target.value)}
                    list="kb-sim-chatters"
                    placeholder="e.g. vexfan"
                    autoComplete="off"
                    maxLength={25}
                    isInvalid={nameProblem}
                  />
                  <datalist id="kb-sim-chatters">
                    {log?.chatters.map((c) => (
                      <option key={c.kickUsername} value={c.kickUsername} />
                    ))}
                  </datalist>
                  <Form.Control.Feedback type="invalid">2–25 letters, digits or underscores.</Form.Control.Feedback>
                  <Form.Text>The same name is always the same Kick account.</Form.Text>
                </Form.Group>
                <Form.Check
                  type="switch"
                  id="kb-sim-subscriber"
                  className="mb-3"
                  label="Subscriber badge"
                  checked={subscriber}
                  disabled={sending}
                  onChange={(e) => setSubscriber(e.target.checked)}
                />
                <Form.Check
                  type="switch"
                  id="kb-sim-moderator"
                  className="mb-3"
                  label="Moderator badge"
                  checked={moderator}
                  disabled={sending}
                  onChange={(e) => setModerator(e.target.checked)}
                />
                <Form.Group controlId="kb-sim-message" className="mb-3">
                  <Form.Label>Message</Form.Label>
                  <Form.Control
                    as="textarea"
                    rows={3}
                    ref={messageRef}
                    value={content}
                    readOnly={sending}
                    maxLength={CHAT_MESSAGE_MAX_LENGTH}
                    placeholder="!verify ABC123"
                    onChange={(e) => setContent(e.target.value)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' && !e.shiftKey) {
                        e.preventDefault();
                        void send();
                      }
                    }}
                  />
                  <Form.Text>Enter sends; Shift+Enter adds a line.</Form.Text>
                </Form.Group>
                <Button type="submit" variant="primary" className="w-100" disabled={!canSend}>
                  {pending ? (
                    <Spinner animation="border" size="sm" className="me-2" aria-hidden />
                  ) : (
                    <FaPaperPlane aria-hidden className="me-2" />
                  )}
                  Send to chat
                </Button>
              </Form>
            )}
          </div>
          {log?.simulator && <SimulateEventsCard />}
        </div>
        <div className="col-lg-8">
          <div className="kb-card">
            <div className="d-flex align-items-center justify-content-between mb-2">
              <h2 className="h6 mb-0">Recent chat</h2>
              <span className="small text-body-secondary">newest first · refreshes by itself</span>
            </div>
            {!log ? (
              <div className="py-4 text-center" aria-busy="true">
                <Spinner animation="border" size="sm" aria-hidden />
              </div>
            ) : log.messages.length === 0 ? (
              <p className="text-body-secondary py-4 text-center mb-0">No chat messages yet.</p>
            ) : (
              <ul className="kb-chat-log" aria-label="Recent chat messages" tabIndex={0}>
                {log.messages.map((m) => (
                  <ChatLine key={m.messageId} entry={m} />
                ))}
              </ul>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
