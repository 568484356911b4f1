-- The Kick bot's user token, connected by an admin (OAuth 2.1 + PKCE); tokens sealed at rest.
CREATE TABLE kick_bot_tokens (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  kick_user_id text NOT NULL,
  kick_username text NOT NULL,
  scope text NOT NULL,
  access_token text NOT NULL,
  refresh_token text NOT NULL,
  expires_at timestamptz NOT NULL,
  connected_by uuid REFERENCES users(id) ON DELETE SET NULL,
  connected_at timestamptz NOT NULL,
  refreshed_at timestamptz,
  refresh_count integer NOT NULL DEFAULT 0,
  refresh_lease_until timestamptz,
  last_error text,
  last_error_at timestamptz
);

CREATE TABLE kick_bot_oauth_states (
  state text PRIMARY KEY,
  verifier text NOT NULL,
  created_by uuid REFERENCES users(id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);

-- The stream's live state, from Kick's livestream.status.updated webhook (for Admin → Integrations).
CREATE TABLE kick_live_state (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  is_live boolean NOT NULL,
  title text,
  changed_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL
);
