-- Slot calls (docs/features/slot-calls.md): the queue's one settings row (open or closed, the
-- rules, the seed committed for the next random pick), every call with what it cost and whether
-- it was refunded or paid out, the random picks with their seeds and snapshots, and the slots the
-- admin added to the shipped catalogue. Hunt bonuses remember who called them.
CREATE TABLE slot_call_settings (
  id integer PRIMARY KEY CHECK (id = 1),
  is_open boolean NOT NULL DEFAULT false,
  max_per_viewer integer NOT NULL DEFAULT 1,
  cooldown_seconds integer NOT NULL DEFAULT 0,
  cost numeric(18, 2) NOT NULL DEFAULT 0,
  linked_only boolean NOT NULL DEFAULT false,
  subs_only boolean NOT NULL DEFAULT false,
  max_queue integer NOT NULL DEFAULT 50,
  unknown_slots text NOT NULL DEFAULT 'accept' CHECK (unknown_slots IN ('accept', 'refuse')),
  blacklist text[] NOT NULL DEFAULT '{}',
  payout_multiplier numeric(18, 2) NOT NULL DEFAULT 100,
  payout_points numeric(18, 2) NOT NULL DEFAULT 0,
  seed_hash text,
  server_seed text,
  seed_committed_at timestamptz,
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO slot_call_settings (id) VALUES (1);

CREATE TABLE slot_calls (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id text NOT NULL,
  kick_user_id text NOT NULL,
  kick_username text NOT NULL,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  slot text NOT NULL,
  provider text,
  typed text NOT NULL,
  known boolean NOT NULL,
  status text NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'playing', 'played', 'hunted', 'skipped', 'removed', 'cleared')),
  cost numeric(18, 2) NOT NULL DEFAULT 0,
  refunded_at timestamptz,
  hunt_bonus_id bigint REFERENCES hunt_bonuses (id) ON DELETE SET NULL,
  multiplier numeric(18, 2),
  payout numeric(18, 2),
  paid_at timestamptz,
  called_at timestamptz NOT NULL,
  resolved_at timestamptz
);
CREATE UNIQUE INDEX slot_calls_message ON slot_calls (message_id);
CREATE UNIQUE INDEX slot_calls_hunt_bonus ON slot_calls (hunt_bonus_id) WHERE hunt_bonus_id IS NOT NULL;
CREATE INDEX slot_calls_waiting ON slot_calls (status, id) WHERE status IN ('queued', 'playing');
CREATE INDEX slot_calls_caller ON slot_calls (kick_user_id, called_at DESC);
CREATE INDEX slot_calls_resolved ON slot_calls (resolved_at DESC) WHERE resolved_at IS NOT NULL;

CREATE TABLE slot_call_picks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  call_id bigint NOT NULL REFERENCES slot_calls (id) ON DELETE CASCADE,
  seed_hash text NOT NULL,
  server_seed text NOT NULL,
  committed_at timestamptz NOT NULL,
  snapshot text NOT NULL,
  snapshot_hash text NOT NULL,
  picked_by uuid REFERENCES users (id) ON DELETE SET NULL,
  picked_at timestamptz NOT NULL
);

CREATE TABLE slot_catalogue (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  provider text NOT NULL,
  slot_key text NOT NULL,
  added_by uuid REFERENCES users (id) ON DELETE SET NULL,
  added_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX slot_catalogue_key ON slot_catalogue (slot_key);

ALTER TABLE hunt_bonuses ADD COLUMN called_by text;
