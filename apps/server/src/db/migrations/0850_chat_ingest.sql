-- The batched chat ingest (docs/features/kick-chat.md#the-pipeline): a message row is the claim on
-- its delivery. While it is being processed it holds a short lease (claimed_until); a redelivery
-- after the lease ran out (the process that held it died between recording and answering) takes the
-- message over, and a sweeper finishes leftovers no redelivery came for.
ALTER TABLE chat_messages ADD COLUMN claimed_until timestamptz;
CREATE INDEX chat_messages_unprocessed ON chat_messages (claimed_until) WHERE processed_at IS NULL;
