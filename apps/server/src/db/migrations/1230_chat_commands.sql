-- Custom chat commands and timers (docs/features/custom-commands.md): each command with its
-- aliases, template, cooldowns and usage count (last_used_at is the global cooldown's guard: a
-- use is one conditional UPDATE), each caller's last use (the per-user cooldown's guard: an upsert
-- with a WHERE), the aliases given to built-in commands, and the timers (last_posted_at is the
-- guard that lets one process post one round).
CREATE TABLE chat_commands (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  aliases text[] NOT NULL DEFAULT '{}',
  response text NOT NULL,
  user_cooldown_seconds integer NOT NULL DEFAULT 0,
  global_cooldown_seconds integer NOT NULL DEFAULT 0,
  permission text NOT NULL DEFAULT 'everyone'
    CHECK (permission IN ('everyone', 'subscriber', 'vip', 'moderator', 'broadcaster')),
  live_only boolean NOT NULL DEFAULT false,
  cost numeric(18, 2) NOT NULL DEFAULT 0 CHECK (cost >= 0),
  enabled boolean NOT NULL DEFAULT true,
  uses bigint NOT NULL DEFAULT 0,
  last_used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX chat_commands_name ON chat_commands (name);

CREATE TABLE chat_command_uses (
  command_id uuid NOT NULL REFERENCES chat_commands (id) ON DELETE CASCADE,
  kick_user_id text NOT NULL,
  last_used_at timestamptz NOT NULL,
  PRIMARY KEY (command_id, kick_user_id)
);

CREATE TABLE chat_builtin_aliases (
  alias text PRIMARY KEY,
  builtin text NOT NULL
);

CREATE TABLE chat_timers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  message text NOT NULL,
  interval_minutes integer NOT NULL CHECK (interval_minutes >= 0),
  min_lines integer NOT NULL CHECK (min_lines >= 0),
  live_only boolean NOT NULL DEFAULT true,
  enabled boolean NOT NULL DEFAULT true,
  position integer NOT NULL DEFAULT 0,
  posts bigint NOT NULL DEFAULT 0,
  last_posted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The timers' rotation: one row, whose last post time is the guard of a round (a conditional
-- UPDATE), so two processes running a round at once post one timer message between them.
CREATE TABLE chat_timer_round (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  last_post_at timestamptz
);
INSERT INTO chat_timer_round (id) VALUES (1);
