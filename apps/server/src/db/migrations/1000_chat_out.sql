-- The outgoing Kick chat queue (docs/features/kick-chat-queue.md): every bot message is a row,
-- sent by one process at a time (the lease in chat_out_sender), paced, merged and dropped by age.
-- A row goes queued → sending → sent, or queued → dropped (too old), or sending → unknown (Kick's
-- answer never came: never sent again) or sending → failed (Kick refused it for good).
CREATE TABLE chat_out (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('ack', 'personal', 'announce', 'thanks')),
  topic text,
  addressee text,
  body text NOT NULL,
  reply_to text,
  created_at timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'sent', 'dropped', 'unknown', 'failed')),
  attempt text,
  done_at timestamptz,
  kick_message_id text
);
CREATE INDEX chat_out_waiting ON chat_out (state, id) WHERE state IN ('queued', 'sending');
CREATE INDEX chat_out_done ON chat_out (done_at);

-- One row: the sender's lease (holder, until when), the shared token bucket, a 429's pause, the
-- running totals shown on Admin → Integrations and in /metrics, the posting mode the admin chose,
-- and Kick's last refusal with the hint it gives.
CREATE TABLE chat_out_sender (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  holder text,
  lease_until timestamptz,
  tokens double precision,
  refilled_at timestamptz,
  blocked_until timestamptz,
  sent bigint NOT NULL DEFAULT 0,
  merged bigint NOT NULL DEFAULT 0,
  dropped bigint NOT NULL DEFAULT 0,
  throttled bigint NOT NULL DEFAULT 0,
  failed bigint NOT NULL DEFAULT 0,
  posting_mode text NOT NULL DEFAULT 'streamer' CHECK (posting_mode IN ('streamer', 'bot-account')),
  last_error text,
  last_error_at timestamptz,
  hint text CHECK (hint IN ('try-bot-account', 'enable-bot-setting', 'wrong-account'))
);
INSERT INTO chat_out_sender (id) VALUES (1);

-- The bot-account posting mode keeps a second Kick token (slot 2) beside the streamer's (slot 1);
-- a "Connect" in progress remembers which one it connects.
ALTER TABLE kick_bot_tokens DROP CONSTRAINT kick_bot_tokens_id_check;
ALTER TABLE kick_bot_tokens ADD CONSTRAINT kick_bot_tokens_id_check CHECK (id IN (1, 2));
ALTER TABLE kick_bot_oauth_states ADD COLUMN slot smallint NOT NULL DEFAULT 1 CHECK (slot IN (1, 2));
