-- Challenges (admin-managed, public list), daily reward claims (once per user, type and UTC day:
-- the UNIQUE constraint is the guard, not a check-then-insert), the per-type reward policies, and
-- the previous-day partner wagers that type 5 (Roobet) pays back from.

CREATE TABLE challenges (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 120),
  price numeric(18, 2) NOT NULL CHECK (price >= 0),
  description text NOT NULL DEFAULT '',
  category text NOT NULL DEFAULT '',
  image_url text NOT NULL DEFAULT '',
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  created_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz,
  winner_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX challenges_category_status ON challenges (category, status);

CREATE TABLE daily_reward_policies (
  reward_type smallint PRIMARY KEY CHECK (reward_type BETWEEN 0 AND 5),
  enabled boolean NOT NULL DEFAULT true,
  amount numeric(18, 2) NOT NULL DEFAULT 0 CHECK (amount >= 0),
  earnings_percent numeric(9, 4) NOT NULL DEFAULT 0 CHECK (earnings_percent BETWEEN 0 AND 100),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO daily_reward_policies (reward_type, amount, earnings_percent) VALUES
  (0, 1.00, 0), (1, 0.50, 0), (2, 1.00, 0), (3, 0.25, 0), (4, 0.25, 0), (5, 0, 0.5);

CREATE TABLE daily_reward_claims (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reward_type smallint NOT NULL CHECK (reward_type BETWEEN 0 AND 5),
  day date NOT NULL,
  amount numeric(18, 2) NOT NULL CHECK (amount >= 0),
  unit text NOT NULL,
  created_at timestamptz NOT NULL,
  CONSTRAINT daily_reward_claims_once_per_day UNIQUE (user_id, reward_type, day)
);

-- One partner fetch per site and UTC day: who wagered how much under the code that day.
CREATE TABLE partner_daily_wagers (
  site smallint NOT NULL,
  day date NOT NULL,
  player_name text NOT NULL, -- lower-cased partner username
  wagered numeric(18, 2) NOT NULL,
  weighted_wagered numeric(18, 2),
  PRIMARY KEY (site, day, player_name)
);
CREATE TABLE partner_daily_fetches (
  site smallint NOT NULL,
  day date NOT NULL,
  fetched_at timestamptz NOT NULL,
  players integer NOT NULL,
  PRIMARY KEY (site, day)
);
