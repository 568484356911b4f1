-- Stream streaks (docs/features/stream-streaks.md): the live sessions Kick's
-- `livestream.status.updated` opened and closed, one attendance row per (user, session) whoever
-- records it, each user's running streak, the admin's bonus per streak length and the bonuses paid
-- (one per user, session and length).
CREATE TABLE stream_sessions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  started_at timestamptz NOT NULL UNIQUE,
  ended_at timestamptz
);

CREATE TABLE stream_attendance (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  session_id bigint NOT NULL REFERENCES stream_sessions (id) ON DELETE CASCADE,
  streak integer NOT NULL,
  attended_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, session_id)
);

CREATE TABLE stream_streaks (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  current integer NOT NULL DEFAULT 0,
  best integer NOT NULL DEFAULT 0,
  last_session_id bigint REFERENCES stream_sessions (id) ON DELETE SET NULL,
  -- The streak a missed stream ended, while it may still be restored (once) from the store.
  lost integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE stream_streak_bonuses (
  length integer PRIMARY KEY CHECK (length BETWEEN 2 AND 1000),
  points numeric(18, 2) NOT NULL CHECK (points > 0)
);

CREATE TABLE stream_streak_payouts (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  session_id bigint NOT NULL REFERENCES stream_sessions (id) ON DELETE CASCADE,
  length integer NOT NULL,
  points numeric(18, 2) NOT NULL,
  paid_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, session_id, length)
);
