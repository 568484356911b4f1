-- Ticket raffles (docs/features/raffles.md): the raffle with its rules, ticket sources and
-- commit-reveal draw; its prizes in draw order; each owner's tally (the row a purchase locks);
-- every acquisition of tickets with its source; the winners.
CREATE TABLE raffles (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  image_url text,
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'open', 'closed', 'drawn', 'cancelled')),
  ticket_price numeric(18, 2) NOT NULL CHECK (ticket_price > 0),
  max_tickets_per_user integer NOT NULL CHECK (max_tickets_per_user > 0),
  require_kick boolean NOT NULL DEFAULT false,
  require_verified_partner boolean NOT NULL DEFAULT false,
  subs_only boolean NOT NULL DEFAULT false,
  sell_tickets boolean NOT NULL DEFAULT true,
  tickets_per_sub integer NOT NULL DEFAULT 0,
  sub_cap integer NOT NULL DEFAULT 0,
  tickets_per_gift integer NOT NULL DEFAULT 0,
  gift_cap integer NOT NULL DEFAULT 0,
  kicks_per_ticket integer NOT NULL DEFAULT 0,
  kicks_cap integer NOT NULL DEFAULT 0,
  opens_at timestamptz NOT NULL,
  closes_at timestamptz NOT NULL,
  -- Bumped by every change of the closing time: the durable deadline of an older one is stale.
  version integer NOT NULL DEFAULT 1,
  seed_hash text,
  server_seed text,
  committed_at timestamptz,
  snapshot text,
  snapshot_hash text,
  closed_at timestamptz,
  drawn_at timestamptz,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX raffles_status ON raffles (status, closes_at DESC);

CREATE TABLE raffle_prizes (
  raffle_id uuid NOT NULL REFERENCES raffles (id) ON DELETE CASCADE,
  position integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('points', 'item')),
  points numeric(18, 2),
  item text,
  PRIMARY KEY (raffle_id, position)
);

CREATE TABLE raffle_entries (
  raffle_id uuid NOT NULL REFERENCES raffles (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  tickets integer NOT NULL DEFAULT 0 CHECK (tickets >= 0),
  bought integer NOT NULL DEFAULT 0 CHECK (bought >= 0),
  PRIMARY KEY (raffle_id, user_id)
);

CREATE TABLE raffle_tickets (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  raffle_id uuid NOT NULL REFERENCES raffles (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  source text NOT NULL CHECK (source IN ('points', 'sub', 'gift', 'kicks')),
  quantity integer NOT NULL CHECK (quantity > 0),
  points_paid numeric(18, 2) NOT NULL DEFAULT 0,
  event_id text,
  refunded_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX raffle_tickets_user ON raffle_tickets (user_id, id DESC);
CREATE INDEX raffle_tickets_raffle ON raffle_tickets (raffle_id, user_id);
CREATE UNIQUE INDEX raffle_tickets_event ON raffle_tickets (raffle_id, source, event_id) WHERE event_id IS NOT NULL;

CREATE TABLE raffle_winners (
  raffle_id uuid NOT NULL REFERENCES raffles (id) ON DELETE CASCADE,
  position integer NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  username text NOT NULL,
  prize text NOT NULL,
  PRIMARY KEY (raffle_id, position)
);
