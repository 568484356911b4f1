-- Real-time games: durable phase deadlines any process may fire, game chat, Split or Steal.

-- One row per pending deadline. Rows are only inserted by game actions (never updated), and the
-- firing process claims a due row with FOR UPDATE SKIP LOCKED, then locks the game row: game
-- actions lock the game row and only insert here, so the two never wait on each other in a cycle.
CREATE TABLE game_timers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  subject_id text NOT NULL,
  version integer NOT NULL,
  due_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (kind, subject_id, version)
);
CREATE INDEX game_timers_due ON game_timers (due_at);

CREATE TABLE game_chat_messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  room text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  message text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 300),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX game_chat_room_newest ON game_chat_messages (room, id DESC);

CREATE TABLE split_or_steal_games (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  status smallint NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 6),
  version integer NOT NULL DEFAULT 1,
  reward numeric(18, 2) NOT NULL CHECK (reward > 0),
  counter_seconds integer NOT NULL CHECK (counter_seconds > 0),
  is_private boolean NOT NULL DEFAULT false,
  designated1_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  designated2_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  player1_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  player2_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  player1_selection smallint CHECK (player1_selection IN (1, 2)),
  player2_selection smallint CHECK (player2_selection IN (1, 2)),
  -- What each player's two balls hold: 1 Split, 2 Steal (dealt at random when the game is made).
  player1_answer1 smallint NOT NULL CHECK (player1_answer1 IN (1, 2)),
  player1_answer2 smallint NOT NULL CHECK (player1_answer2 IN (1, 2)),
  player2_answer1 smallint NOT NULL CHECK (player2_answer1 IN (1, 2)),
  player2_answer2 smallint NOT NULL CHECK (player2_answer2 IN (1, 2)),
  player1_winnings numeric(18, 2),
  player2_winnings numeric(18, 2),
  phase_ends_at timestamptz,
  phase_version integer, -- the version at which the current timed phase began; its timer carries it
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz
);
CREATE INDEX split_or_steal_games_newest ON split_or_steal_games (created_at DESC);
