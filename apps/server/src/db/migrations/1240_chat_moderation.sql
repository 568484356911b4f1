-- Chat moderation filters (docs/features/chat-moderation.md): the settings (one row), the log of
-- every action and warning (one per chat message: the unique message id is the claim that lets
-- only one process act on a message), and the one-off link permits moderators give.
CREATE TABLE chat_moderation_settings (
  id smallint PRIMARY KEY DEFAULT 1,
  settings jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE chat_moderation_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id text NOT NULL,
  kick_user_id text NOT NULL,
  kick_username text NOT NULL,
  rule text NOT NULL,
  content text NOT NULL,
  action text NOT NULL,
  timeout_minutes integer,
  outcome text NOT NULL DEFAULT 'pending',
  kick_status integer,
  kick_answer text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT chat_moderation_log_message UNIQUE (message_id)
);
CREATE INDEX chat_moderation_log_sender ON chat_moderation_log (kick_user_id, created_at);
CREATE INDEX chat_moderation_log_created ON chat_moderation_log (created_at);

CREATE TABLE chat_moderation_permits (
  kick_username text PRIMARY KEY,
  until timestamptz NOT NULL
);
