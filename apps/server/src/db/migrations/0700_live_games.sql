-- The game engine's generic storage (apps/server/src/games/store.ts): one row per game of any
-- kind that has no table of its own, its whole state as versioned JSON beside the fields the
-- engine reads. The row is what an action locks (FOR UPDATE), like a game's own table row.
CREATE TABLE live_games (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Creation order: games made at the same clock instant (a burst, a test's fixed clock) still sort.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  kind text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  state jsonb NOT NULL,
  owner_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  phase_ends_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX live_games_kind_newest ON live_games (kind, created_at DESC);
