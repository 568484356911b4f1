-- The bonus hunt (docs/features/bonus-hunt.md): hunts, their bonuses in the order bought, and `!guess` guesses.
-- At most one hunt runs at a time; a hunt's row is the lock every change of it takes.

CREATE TABLE hunts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  status text NOT NULL DEFAULT 'running' CONSTRAINT hunts_status CHECK (status IN ('running', 'finished')),
  start_cost numeric(18, 2) NOT NULL CONSTRAINT hunts_start_cost CHECK (start_cost >= 0),
  guess_prize numeric(18, 2) NOT NULL DEFAULT 0 CONSTRAINT hunts_guess_prize CHECK (guess_prize >= 0),
  guessing text NOT NULL DEFAULT 'open' CONSTRAINT hunts_guessing CHECK (guessing IN ('open', 'closed')),
  guessing_closed_at timestamptz,
  -- SHA-256 of the canonical closed guess list (packages/common/src/hunt/guesses.ts).
  guesses_hash text,
  winner_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  winner_kick_username text,
  winner_amount numeric(18, 2),
  -- The ledger row of the prize: set once, in the finishing transaction.
  prize_ledger_id bigint,
  -- Grows with every change: clients drop older states.
  version integer NOT NULL DEFAULT 1,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE UNIQUE INDEX hunts_one_running ON hunts ((status = 'running')) WHERE status = 'running';
CREATE INDEX hunts_created ON hunts (created_at DESC);

CREATE TABLE hunt_bonuses (
  id bigserial PRIMARY KEY,
  hunt_id uuid NOT NULL REFERENCES hunts (id) ON DELETE CASCADE,
  position integer NOT NULL,
  slot text NOT NULL,
  provider text NOT NULL DEFAULT '',
  bet numeric(18, 2) NOT NULL CONSTRAINT hunt_bonuses_bet CHECK (bet > 0),
  cost numeric(18, 2) NOT NULL DEFAULT 0 CONSTRAINT hunt_bonuses_cost CHECK (cost >= 0),
  payout numeric(18, 2) CONSTRAINT hunt_bonuses_payout CHECK (payout >= 0),
  opened_at timestamptz,
  CONSTRAINT hunt_bonuses_position UNIQUE (hunt_id, position)
);

-- One guess per user per hunt: the primary key; a new guess replaces the old one (and its time).
CREATE TABLE hunt_guesses (
  hunt_id uuid NOT NULL REFERENCES hunts (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kick_username text NOT NULL,
  amount numeric(18, 2) NOT NULL CONSTRAINT hunt_guesses_amount CHECK (amount >= 0),
  guessed_at timestamptz NOT NULL,
  -- Breaks ties between guesses made in the same millisecond: taken anew when a guess is replaced.
  seq bigint NOT NULL,
  PRIMARY KEY (hunt_id, user_id)
);
CREATE SEQUENCE hunt_guess_seq;
CREATE INDEX hunt_guesses_order ON hunt_guesses (hunt_id, guessed_at, seq);
