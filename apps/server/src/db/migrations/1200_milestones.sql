-- The milestone ladder of each partner site (docs/features/milestone-rewards.md): its settings, its
-- tiers, and each linked viewer's progress per cycle with what the cycle already paid. The progress
-- row is what a claim and the poller's automatic payout lock (FOR UPDATE), so a cycle's rewards are
-- paid once whoever pays them, in whichever process.
CREATE TABLE milestone_ladders (
  site smallint PRIMARY KEY,
  enabled boolean NOT NULL DEFAULT false,
  automatic boolean NOT NULL DEFAULT false,
  cycle text NOT NULL DEFAULT 'period' CHECK (cycle IN ('period', 'all_time')),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE milestone_tiers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site smallint NOT NULL REFERENCES milestone_ladders (site) ON DELETE CASCADE,
  position smallint NOT NULL,
  name text NOT NULL,
  threshold numeric(18, 2) NOT NULL CHECK (threshold > 0),
  reward_kind text NOT NULL CHECK (reward_kind IN ('points', 'cash')),
  reward_amount numeric(18, 2) NOT NULL CHECK (reward_amount > 0),
  UNIQUE (site, threshold)
);

CREATE TABLE milestone_progress (
  site smallint NOT NULL,
  cycle_key text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  wagered numeric(18, 2) NOT NULL DEFAULT 0,
  paid_threshold numeric(18, 2) NOT NULL DEFAULT 0,
  paid_points numeric(18, 2) NOT NULL DEFAULT 0 CHECK (paid_points >= 0),
  paid_cash numeric(18, 2) NOT NULL DEFAULT 0 CHECK (paid_cash >= 0),
  updated_at timestamptz NOT NULL,
  paid_at timestamptz,
  PRIMARY KEY (site, cycle_key, user_id)
);
CREATE INDEX milestone_progress_user ON milestone_progress (user_id);
