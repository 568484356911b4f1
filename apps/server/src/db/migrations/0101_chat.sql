-- The live chat pipeline (docs/features/kick-chat.md).

-- Kick webhook deliveries seen (Kick-Event-Message-Id): delivery is at least once, a replay is
-- refused. Rows older than the 5-minute signature window plus a margin are pruned.
CREATE TABLE kick_webhook_deliveries (
  message_id text PRIMARY KEY,
  event_type text NOT NULL,
  received_at timestamptz NOT NULL
);
CREATE INDEX kick_webhook_deliveries_received ON kick_webhook_deliveries (received_at);

-- Every chat message the pipeline took, once per message id (the claim that makes several server
-- processes safe), with what it did: the handler that took it as a command, replies, failures.
CREATE TABLE chat_messages (
  message_id text PRIMARY KEY,
  source text NOT NULL,
  kick_user_id text NOT NULL,
  kick_username text NOT NULL,
  color text,
  is_subscriber boolean NOT NULL,
  badges text[] NOT NULL DEFAULT '{}',
  content text NOT NULL,
  sent_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  linked_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  handled_by text,
  replies text[] NOT NULL DEFAULT '{}',
  errors text[] NOT NULL DEFAULT '{}',
  processed_at timestamptz
);
CREATE INDEX chat_messages_received ON chat_messages (received_at DESC);
CREATE INDEX chat_messages_kick_user ON chat_messages (kick_user_id, received_at DESC);

-- Each Kick chatter's last activity: name, colour, subscriber badge (from their newest message),
-- subscription end (from subscription events), time of their last message as this server saw it.
-- Giveaway eligibility and sub-only rules read it.
CREATE TABLE kick_chat_activity (
  kick_user_id text PRIMARY KEY,
  kick_username text NOT NULL,
  color text,
  is_subscriber boolean NOT NULL DEFAULT false,
  badges text[] NOT NULL DEFAULT '{}',
  subscribed_until timestamptz,
  last_message_at timestamptz,
  updated_at timestamptz NOT NULL
);
CREATE INDEX kick_chat_activity_last_message ON kick_chat_activity (last_message_at DESC);
CREATE INDEX kick_chat_activity_username ON kick_chat_activity (lower(kick_username));
