-- A community wager goal per partner site (docs/features/community-goal.md): the target and the
-- reward announced on reaching it; its progress is kept per leaderboard period of that site, and
-- `reached_at` is set once (a conditional update) when the period's standings first reach it.
CREATE TABLE community_goals (
  site smallint PRIMARY KEY,
  title text NOT NULL,
  target numeric(18, 2) NOT NULL CHECK (target > 0),
  reward text NOT NULL DEFAULT '',
  active boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE community_goal_periods (
  period_id bigint PRIMARY KEY REFERENCES leaderboard_periods (id) ON DELETE CASCADE,
  site smallint NOT NULL,
  progress numeric(18, 2) NOT NULL DEFAULT 0,
  reached_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
