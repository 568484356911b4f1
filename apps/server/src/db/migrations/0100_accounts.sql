-- Accounts (docs/features/sign-in-and-age-gate.md): partner ids unique per site across users
-- (case-insensitively), Kick link codes, Discord OAuth states bound to the session that started
-- them.

CREATE UNIQUE INDEX users_clash_id_unique ON users (lower(clash_id)) WHERE clash_id IS NOT NULL;
CREATE UNIQUE INDEX users_rustmagic_id_unique ON users (lower(rustmagic_id)) WHERE rustmagic_id IS NOT NULL;
CREATE UNIQUE INDEX users_roobet_name_unique ON users (lower(roobet_name)) WHERE roobet_name IS NOT NULL;
CREATE UNIQUE INDEX users_cases_id_unique ON users (lower(cases_id)) WHERE cases_id IS NOT NULL;

-- `!verify <code>` in the streamer's chat links the sender's Kick account to the code's owner.
-- One live code per user (a new one replaces the old); a code is used at most once.
CREATE TABLE kick_link_codes (
  code text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  used_by_kick_id text
);
CREATE INDEX kick_link_codes_user ON kick_link_codes (user_id);
CREATE INDEX kick_link_codes_expires ON kick_link_codes (expires_at);

-- The OAuth `state` of a Discord link in progress (its hash), valid only for the session that
-- started it, once.
CREATE TABLE discord_oauth_states (
  state_hash text PRIMARY KEY,
  session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  return_to text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX discord_oauth_states_expires ON discord_oauth_states (expires_at);
