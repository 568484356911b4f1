-- Kick events and bans (docs/features/kick-events-and-bans.md).
--
-- kick_bans: one row per Kick account, the latest `moderation.banned` for it. expires_at NULL is a
-- permanent ban; lifted_at is set when an admin lifts it on the site (Kick sends no unban event).
-- Keyed by the Kick account, not the site user, so a ban on an account nobody linked yet counts
-- from the moment it is linked.
CREATE TABLE kick_bans (
  kick_user_id text PRIMARY KEY,
  kick_username text NOT NULL,
  reason text,
  moderator text,
  banned_at timestamptz NOT NULL,
  expires_at timestamptz,
  message_id text NOT NULL,
  received_at timestamptz NOT NULL,
  lifted_at timestamptz,
  lifted_by uuid REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX kick_bans_active ON kick_bans (expires_at) WHERE lifted_at IS NULL;

-- The last delivery of each Kick event type ever processed (deliveries themselves are kept a day).
CREATE TABLE kick_event_last_seen (
  event_type text PRIMARY KEY,
  last_received_at timestamptz NOT NULL
);

-- livestream.metadata.updated: the title and category, and the Kick timestamp of the delivery that
-- set them, so an older delivery arriving late does not overwrite a newer one.
ALTER TABLE kick_live_state ADD COLUMN title_changed_at timestamptz;
ALTER TABLE kick_live_state ADD COLUMN category text;
