-- Earning that cannot be farmed (docs/features/fair-earning.md): the admin's settings (one row),
-- the per-user per-UTC-day totals the daily caps are checked against (one row per user, kind and
-- day, changed by one conditional UPDATE on the locked row), and the keyed hashes of sign-in
-- signals the possible-alts view groups by (docs/security.md#fair-earning-signals).
CREATE TABLE fair_earning_settings (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  channel_points_daily_cap numeric(18, 2) NOT NULL DEFAULT 0,
  chat_points_daily_cap numeric(18, 2) NOT NULL DEFAULT 0,
  real_chat_min_chatters integer NOT NULL DEFAULT 0,
  min_kick_account_days integer NOT NULL DEFAULT 0,
  min_link_days integer NOT NULL DEFAULT 0,
  signal_retention_days integer NOT NULL DEFAULT 90,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO fair_earning_settings (id) VALUES (1);

CREATE TABLE earning_daily_totals (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL,
  day date NOT NULL,
  amount numeric(18, 2) NOT NULL DEFAULT 0,
  last_granted numeric(18, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, kind, day)
);
CREATE INDEX earning_daily_totals_day ON earning_daily_totals (day);

CREATE TABLE account_signals (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL,
  hash text NOT NULL,
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, kind, hash)
);
CREATE INDEX account_signals_hash ON account_signals (kind, hash);
CREATE INDEX account_signals_last_seen ON account_signals (last_seen_at);

-- When the Kick account was linked (the link-age rule); accounts linked before this migration
-- count from the site account's creation.
ALTER TABLE users ADD COLUMN kick_linked_at timestamptz;
UPDATE users SET kick_linked_at = created_at WHERE kick_id IS NOT NULL;

-- When this channel first saw the Kick account (the account-age rule: Kick's API gives no
-- creation date).
ALTER TABLE kick_chat_activity ADD COLUMN first_seen_at timestamptz;
UPDATE kick_chat_activity SET first_seen_at = coalesce(last_message_at, updated_at);
