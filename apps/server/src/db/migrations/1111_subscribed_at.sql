-- Kick's subscription end dates are wrong (new subs three days late, gifts one day early): a chat
-- message without the subscriber badge, newer than the last subscription event, ends the
-- subscription (docs/features/kick-events-and-bans.md#subscriber-status). subscribed_at is when
-- that last event arrived; rows from before have none, so their next badge-less message ends them.
ALTER TABLE kick_chat_activity ADD COLUMN subscribed_at timestamptz;
