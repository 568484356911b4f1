-- Foundation: users, sessions, OpenID nonces, the ledger, the fulfilment queue, the audit log and
-- admin-editable settings. Later features add their own numbered files.

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  steam_id text NOT NULL UNIQUE,
  username text NOT NULL,
  avatar_url text,
  role text NOT NULL DEFAULT 'User' CHECK (role IN ('User', 'Admin')),
  points numeric(18, 2) NOT NULL DEFAULT 0 CONSTRAINT users_points_non_negative CHECK (points >= 0),
  gems numeric(18, 2) NOT NULL DEFAULT 0 CONSTRAINT users_gems_non_negative CHECK (gems >= 0),
  excluded boolean NOT NULL DEFAULT false,
  show_name_on_boards boolean NOT NULL DEFAULT false,
  kick_id text UNIQUE,
  kick_username text,
  discord_id text UNIQUE,
  discord_username text,
  clash_id text,
  rustmagic_id text,
  roobet_name text,
  cases_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz
);
CREATE INDEX users_username_lower ON users (lower(username) text_pattern_ops);

CREATE TABLE sessions (
  id text PRIMARY KEY, -- sha256 of the cookie token, so a leaked table cannot be replayed
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  user_agent text
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

CREATE TABLE openid_nonces (
  nonce text PRIMARY KEY,
  seen_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ledger (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  currency text NOT NULL CHECK (currency IN ('points', 'gems')),
  delta numeric(18, 2) NOT NULL CHECK (delta <> 0),
  balance_after numeric(18, 2) NOT NULL CHECK (balance_after >= 0),
  reason text NOT NULL,
  reference text,
  memo text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_user_newest ON ledger (user_id, id DESC);
CREATE INDEX ledger_reason_reference ON ledger (reason, reference);

CREATE TABLE fulfilment_items (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  reference text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  description text NOT NULL,
  amount numeric(18, 2),
  unit text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'rejected')),
  refund_currency text CHECK (refund_currency IN ('points', 'gems')),
  refund_amount numeric(18, 2) CHECK (refund_amount > 0),
  note text,
  handled_by uuid REFERENCES users (id) ON DELETE SET NULL,
  handled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (kind, reference)
);
CREATE INDEX fulfilment_status ON fulfilment_items (status, id DESC);
CREATE INDEX fulfilment_user ON fulfilment_items (user_id, id DESC);

CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  actor_label text NOT NULL,
  action text NOT NULL,
  target_type text,
  target_id text,
  before jsonb,
  after jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_newest ON audit_log (id DESC);
CREATE INDEX audit_log_action ON audit_log (action, id DESC);

CREATE TABLE settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
