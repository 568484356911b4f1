-- Chat predictions (docs/features/predictions.md#rules). The prediction itself is a live game of kind
-- 'prediction' in live_games (the engine's generic storage: its state, version and auto-lock
-- deadline). Here: one escrowed bet per bettor per prediction, and the settlement of each pool.
CREATE TABLE prediction_bets (
  prediction_id uuid NOT NULL REFERENCES live_games (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- One answer per bettor: betting again on the same answer adds to the stake.
  answer_id integer NOT NULL,
  stake numeric(18, 2) NOT NULL CHECK (stake > 0),
  -- Set when the pool is settled: what the bettor got back (0 for a loser).
  payout numeric(18, 2),
  bets integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (prediction_id, user_id)
);

-- One row per settled pool; the primary key makes a second settlement impossible.
CREATE TABLE prediction_settlements (
  prediction_id uuid PRIMARY KEY REFERENCES live_games (id) ON DELETE CASCADE,
  -- 'resolved' (pari-mutuel), 'refunded' (nobody on the winning answer) or 'cancelled'.
  outcome text NOT NULL,
  winning_answer_id integer,
  pool numeric(18, 2) NOT NULL,
  paid numeric(18, 2) NOT NULL,
  -- Hundredths left by rounding each winner down: pool = paid + remainder.
  remainder numeric(18, 2) NOT NULL,
  settled_at timestamptz NOT NULL DEFAULT now()
);
