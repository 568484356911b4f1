/**
 * The chat panel of a live game (shared by every live feature; the game chat pipeline on the
 * server is one too): newest message first; the input only for signed-in users (visitors read
 * along); empty messages are not sent, Enter sends, the input clears after a success. Messages are
 * rendered as text.
 */
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { FaPaperPlane } from 'react-icons/fa6';
import { GAME_CHAT_MAX_LENGTH, type GameChatMessage } from '@kickback/common/hubs/game-chat';
import { Avatar } from '../ui/avatar';
import './game-chat.css';

export interface GameChatProps {
  messages: GameChatMessage[];
  canSend: boolean;
  onSend(text: string): Promise<boolean>;
  onSignIn(): void;
  /** Users whose names stand out (the players, the owner). */
  playerIds: Array<string | undefined>;
  /** Placement from the page (its grid area). */
  className?: string;
}

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

export function GameChat({ messages, canSend, onSend, onSignIn, playerIds, className }: GameChatProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const message = text.trim();
    if (!message || sending) return;
    setSending(true);
    const ok = await onSend(message);
    setSending(false);
    if (ok) setText('');
  };

  return (
    <aside className={className ? `live-chat ${className}` : 'live-chat'} aria-labelledby="live-chat-title">
      <h2 id="live-chat-title" className="live-chat-title">
        Game chat
      </h2>
      {canSend ? (
        <Form className="live-chat-form" onSubmit={(e) => void submit(e)}>
          <Form.Control
            aria-label="Chat message"
            placeholder="Say something…"
            value={text}
            maxLength={GAME_CHAT_MAX_LENGTH}
            onChange={(e) => setText(e.target.value)}
            autoComplete="off"
          />
          <Button type="submit" variant="primary" aria-label="Send" disabled={sending}>
            <FaPaperPlane aria-hidden />
          </Button>
        </Form>
      ) : (
        <p className="live-chat-signin">
          Sign in to chat.{' '}
          <Button size="sm" variant="outline-secondary" onClick={onSignIn}>
            Sign In
          </Button>
        </p>
      )}
      <ol className="live-chat-list" aria-label="Chat messages, newest first">
        {messages.length === 0 && <li className="live-chat-empty">No messages yet.</li>}
        {messages.map((m) => (
          <li key={m.id} className={playerIds.includes(m.userId) ? 'is-player' : undefined}>
            <Avatar url={m.avatarUrl} size={24} />
            <div>
              <div className="live-chat-meta">
                <strong>{m.username}</strong> <time dateTime={m.sentAt}>{timeOf(m.sentAt)}</time>
              </div>
              <p className="live-chat-text">{m.message}</p>
            </div>
          </li>
        ))}
      </ol>
    </aside>
  );
}
