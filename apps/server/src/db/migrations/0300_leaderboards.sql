-- Weekly wager leaderboards: per-site settings and poll state, periods, the live standings of a
-- period (with the wager-points watermark) and the frozen results of closed periods.

CREATE TABLE leaderboard_sites (
  site smallint PRIMARY KEY CHECK (site BETWEEN 1 AND 7),
  shown boolean NOT NULL DEFAULT true,
  period_anchor timestamptz NOT NULL DEFAULT '2026-01-05T00:00:00Z',
  period_days integer NOT NULL DEFAULT 7 CHECK (period_days BETWEEN 1 AND 31),
  points_per_unit numeric(10, 2) NOT NULL DEFAULT 10 CHECK (points_per_unit >= 0),
  reward_unit text NOT NULL CHECK (reward_unit IN ('USD', 'gems', 'coins')),
  rewards jsonb NOT NULL DEFAULT '[]',
  codes jsonb NOT NULL DEFAULT '[]',
  referral_url text,
  excluded_names jsonb NOT NULL DEFAULT '[]',
  -- Poll state: when the next refresh is due, who holds it (a lease), how the last ones went.
  next_poll_at timestamptz NOT NULL DEFAULT '1970-01-01T00:00:00Z',
  lease_until timestamptz,
  last_success_at timestamptz,
  last_error text,
  last_error_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO leaderboard_sites (site, reward_unit) VALUES
  (1, 'gems'), (2, 'gems'), (3, 'coins'), (4, 'coins'), (5, 'coins'), (6, 'USD'), (7, 'USD');

CREATE TABLE leaderboard_periods (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site smallint NOT NULL REFERENCES leaderboard_sites (site),
  start_at timestamptz NOT NULL,
  end_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  -- When the fetch behind the stored standings started; an older fetch never overwrites a newer one.
  fetched_at timestamptz,
  closed_at timestamptz,
  reward_unit text,
  CHECK (end_at > start_at),
  UNIQUE (site, start_at)
);
CREATE INDEX leaderboard_periods_site_end ON leaderboard_periods (site, end_at DESC);
CREATE INDEX leaderboard_periods_open ON leaderboard_periods (site) WHERE status = 'open';

-- The latest partner figures of each player of an open period. `credited` is the part of the
-- ranked amount already turned into store points (the watermark, moved in the same transaction).
CREATE TABLE leaderboard_standings (
  period_id bigint NOT NULL REFERENCES leaderboard_periods (id) ON DELETE CASCADE,
  player_key text NOT NULL,
  username text NOT NULL,
  external_id text,
  avatar_url text,
  wagered numeric(18, 2) NOT NULL,
  weighted_wagered numeric(18, 2),
  unit text NOT NULL,
  on_code boolean NOT NULL DEFAULT true,
  seen_at timestamptz NOT NULL,
  credited numeric(18, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (period_id, player_key)
);

-- A closed period's board as it stood at the end. Written once, never updated.
CREATE TABLE leaderboard_results (
  period_id bigint NOT NULL REFERENCES leaderboard_periods (id) ON DELETE CASCADE,
  rank integer NOT NULL CHECK (rank > 0),
  player_key text NOT NULL,
  username text NOT NULL,
  external_id text,
  avatar_url text,
  ranked_amount numeric(18, 2) NOT NULL,
  is_active boolean NOT NULL,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  reward numeric(18, 2),
  reward_bonus numeric(18, 2),
  fulfilment_id bigint,
  PRIMARY KEY (period_id, rank)
);

-- Matching partner players to site users by the id they saved.
CREATE INDEX users_clash_id_match ON users (lower(clash_id)) WHERE clash_id IS NOT NULL;
CREATE INDEX users_rustmagic_id_match ON users (lower(rustmagic_id)) WHERE rustmagic_id IS NOT NULL;
CREATE INDEX users_roobet_name_match ON users (lower(roobet_name)) WHERE roobet_name IS NOT NULL;
CREATE INDEX users_cases_id_match ON users (lower(cases_id)) WHERE cases_id IS NOT NULL;
