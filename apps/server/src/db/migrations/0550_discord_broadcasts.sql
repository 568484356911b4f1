-- Discord broadcasts (docs/features/discord.md#broadcasts): an admin's DM to many linked users,
-- sent by a background job that any process may run (a lease on the row) and that survives
-- restarts; one row per recipient with its outcome. Users whose DMs are closed (Discord error
-- 50007) are marked and skipped until they link Discord again: Discord bans bots that pile up 403s.

ALTER TABLE users ADD COLUMN discord_dm_closed_at timestamptz;

CREATE TABLE discord_broadcasts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  message text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 2000),
  -- The admin's choices as sent: the three audience switches and how many users were picked.
  audience jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  total integer NOT NULL CHECK (total >= 0),
  sent integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_by_label text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  -- The process working on it holds the row until then; an expired lease (a crash) frees it.
  lease_until timestamptz,
  last_error text
);
CREATE INDEX discord_broadcasts_newest ON discord_broadcasts (created_at DESC);
CREATE INDEX discord_broadcasts_open ON discord_broadcasts (created_at) WHERE status IN ('pending', 'running');

-- Recipients, deduplicated by Discord id within a broadcast. A picked user without a Discord link
-- has no id (and fails at once).
CREATE TABLE discord_broadcast_recipients (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  broadcast_id uuid NOT NULL REFERENCES discord_broadcasts (id) ON DELETE CASCADE,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  username text NOT NULL,
  discord_id text,
  discord_username text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
  reason text,
  done_at timestamptz,
  UNIQUE (broadcast_id, discord_id)
);
CREATE INDEX discord_broadcast_recipients_pending ON discord_broadcast_recipients (broadcast_id, id)
  WHERE status = 'pending';
