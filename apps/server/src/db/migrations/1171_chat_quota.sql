-- Kick's daily chat-message quota (docs/features/kick-chat-queue.md#kicks-daily-message-quota): when
-- Kick says the bot used up its messages for the day, the sender pauses (the queue is kept) until
-- the next UTC midnight, trying one line every hour before that; this is that midnight, shown on
-- Admin → Integrations, cleared by the next message Kick accepts.
ALTER TABLE chat_out_sender ADD COLUMN quota_until timestamptz;
