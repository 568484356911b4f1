-- The chat giveaway (docs/features/giveaway.md): settings and the participants epoch in one row, keys, participants
-- per round, draws (seed committed before, revealed after) and winners (recent line, cooldown,
-- prizes).

CREATE TABLE giveaway_settings (
  id smallint PRIMARY KEY DEFAULT 1 CONSTRAINT giveaway_settings_single CHECK (id = 1),
  is_sub_only boolean NOT NULL DEFAULT false,
  is_clash_id_linked_only boolean NOT NULL DEFAULT false,
  is_rust_magic_code_only boolean NOT NULL DEFAULT false,
  is_roobet_code_only boolean NOT NULL DEFAULT false,
  sub_luck smallint NOT NULL DEFAULT 1 CONSTRAINT giveaway_sub_luck CHECK (sub_luck BETWEEN 1 AND 5),
  chat_activity_filter_seconds integer NOT NULL DEFAULT 0
    CONSTRAINT giveaway_chat_activity CHECK (chat_activity_filter_seconds BETWEEN 0 AND 600 AND chat_activity_filter_seconds % 5 = 0),
  rewin_cooldown_seconds integer NOT NULL DEFAULT 86400
    CONSTRAINT giveaway_rewin_cooldown CHECK (rewin_cooldown_seconds BETWEEN 0 AND 2592000),
  winners_per_roll smallint NOT NULL DEFAULT 1 CONSTRAINT giveaway_winners_per_roll CHECK (winners_per_roll BETWEEN 1 AND 10),
  prize_points numeric(18, 2) NOT NULL DEFAULT 0 CONSTRAINT giveaway_prize_points CHECK (prize_points >= 0),
  -- Clear Participants starts a new round: entries belong to the round they were made in.
  round_id bigint NOT NULL DEFAULT 1,
  -- Clear Recent Winners hides winners before this from the line; the cooldown still counts them.
  recent_cleared_at timestamptz,
  last_roll_id uuid,
  last_winner_kick_ids text[] NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO giveaway_settings (id) VALUES (1);

CREATE TABLE giveaway_keys (
  key_lower text PRIMARY KEY,
  key text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL
);

-- One entry per chatter per round: the primary key is the once-per-round guard.
CREATE TABLE giveaway_participants (
  round_id bigint NOT NULL,
  kick_user_id text NOT NULL,
  kick_username text NOT NULL,
  color text,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  entered_at timestamptz NOT NULL,
  PRIMARY KEY (round_id, kick_user_id)
);
CREATE INDEX giveaway_participants_entered ON giveaway_participants (round_id, entered_at);

-- Exactly one draw is open (committed, not rolled) at a time; a roll consumes it and commits the next.
CREATE TABLE giveaway_draws (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  server_seed text NOT NULL,
  seed_hash text NOT NULL,
  committed_at timestamptz NOT NULL,
  rolled_at timestamptz,
  rolled_by uuid REFERENCES users (id) ON DELETE SET NULL,
  round_id bigint,
  snapshot jsonb,
  snapshot_hash text,
  winners_wanted smallint,
  prize_points numeric(18, 2)
);
CREATE UNIQUE INDEX giveaway_draws_one_open ON giveaway_draws ((rolled_at IS NULL)) WHERE rolled_at IS NULL;
CREATE INDEX giveaway_draws_rolled ON giveaway_draws (rolled_at DESC);

CREATE TABLE giveaway_winners (
  draw_id uuid NOT NULL REFERENCES giveaway_draws (id) ON DELETE CASCADE,
  position smallint NOT NULL,
  kick_user_id text NOT NULL,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  won_at timestamptz NOT NULL,
  entry jsonb NOT NULL,
  prize_ledger_id bigint,
  PRIMARY KEY (draw_id, position),
  CONSTRAINT giveaway_winners_once_per_draw UNIQUE (draw_id, kick_user_id)
);
CREATE INDEX giveaway_winners_kick ON giveaway_winners (kick_user_id, won_at DESC);
CREATE INDEX giveaway_winners_won ON giveaway_winners (won_at DESC);
