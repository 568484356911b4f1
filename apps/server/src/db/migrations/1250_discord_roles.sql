-- Discord roles and go-live posts (docs/features/discord-roles.md).
-- One settings row: the streamer's server, the go-live channel, which role each rule gives, and the
-- last refusal Discord answered (403), shown on Admin → Integrations.
CREATE TABLE discord_role_settings (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  guild_id text,
  go_live_channel_id text,
  role_ids jsonb NOT NULL DEFAULT '{}'::jsonb,
  last_problem text,
  last_problem_at timestamptz,
  last_reconcile_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- What the roles of one Discord account should be made to match, one pending job per account:
-- a process claims it with a lease (lease_until), so two processes never work on the same account
-- and a job whose process died is taken over once its lease ran out.
CREATE TABLE discord_role_jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  discord_id text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
  -- reconcile: read the member's roles from Discord first; otherwise trust what was last applied.
  reconcile boolean NOT NULL DEFAULT false,
  attempts integer NOT NULL DEFAULT 0,
  not_before timestamptz NOT NULL,
  lease_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  done_at timestamptz
);
CREATE UNIQUE INDEX discord_role_jobs_one_pending ON discord_role_jobs (discord_id) WHERE status = 'pending';
CREATE INDEX discord_role_jobs_due ON discord_role_jobs (not_before) WHERE status = 'pending';

-- Per Discord account: the managed roles it should have (as last computed) and those applied.
CREATE TABLE discord_role_members (
  discord_id text PRIMARY KEY,
  desired text[] NOT NULL DEFAULT '{}',
  applied text[] NOT NULL DEFAULT '{}',
  note text,
  synced_at timestamptz NOT NULL
);

-- One go-live post per stream: the stream's start is the key, so a repeated or duplicated
-- livestream.status.updated delivery, on any process, finds the row taken.
CREATE TABLE discord_go_live_posts (
  stream_key text PRIMARY KEY,
  title text,
  category text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'posted', 'failed')),
  lease_until timestamptz,
  message_id text,
  last_error text,
  created_at timestamptz NOT NULL,
  posted_at timestamptz
);
CREATE INDEX discord_go_live_posts_pending ON discord_go_live_posts (created_at) WHERE status = 'pending';

-- Who gifted subs, until when: a gifter holds the subscriber role as long as the subs they gave run
-- (the giftees are subscribers in kick_chat_activity already).
CREATE TABLE discord_sub_gifters (
  kick_user_id text PRIMARY KEY,
  until timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
