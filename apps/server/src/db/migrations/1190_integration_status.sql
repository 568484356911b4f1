-- The state of an outside service that every process shows alike (docs/features/kick-events-and-bans.md):
-- the Kick event subscriptions are checked by one process at a time, and the newest check's result
-- is kept here, so Admin → Integrations says the same on every process. One row a source.
CREATE TABLE integration_status (
  source text PRIMARY KEY,
  last_success_at timestamptz,
  last_failure_at timestamptz,
  last_failure text,
  down boolean NOT NULL DEFAULT false,
  next_attempt_at timestamptz,
  detail text
);
