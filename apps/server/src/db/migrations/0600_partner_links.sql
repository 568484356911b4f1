-- Partner links (docs/features/partner-links.md): a partner id a user enters is a claim until proven. Each link is one
-- (user, field) pair with a state: claimed → verified | rejected (or unlinked by its user).
-- One player, one account: per field, the normalised name and the partner's stable id are unique
-- among claimed and verified links, whoever holds them (partial unique indexes decide races).
CREATE TABLE partner_links (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  field text NOT NULL CHECK (field IN ('clashId', 'rustMagicId', 'roobetName', 'casesId')),
  -- What the user typed (trimmed), shown back on the profile.
  value text NOT NULL,
  -- lower-case, whitespace removed: "Neon Wolf" and "neonwolf" are one player.
  name_key text NOT NULL,
  -- The partner's stable id (lower-case), once a claim or a poll resolved the player.
  external_id text,
  state text NOT NULL CHECK (state IN ('claimed', 'verified', 'rejected', 'unlinked')),
  -- The one-time code the user puts into their partner-site name (auto-proof sites only).
  proof_code text,
  -- Wager points earned while claimed: credited on verification, dropped on rejection.
  held_points numeric(18, 2) NOT NULL DEFAULT 0 CHECK (held_points >= 0),
  -- Points credited through this link: what a lost dispute reverses.
  credited_points numeric(18, 2) NOT NULL DEFAULT 0 CHECK (credited_points >= 0),
  -- True for links that existed before this migration (the queue's "mark all existing verified").
  migrated boolean NOT NULL DEFAULT false,
  claimed_at timestamptz NOT NULL,
  decided_at timestamptz,
  decided_by text,
  decision_reason text
);
CREATE UNIQUE INDEX partner_links_name_unique ON partner_links (field, name_key)
  WHERE state IN ('claimed', 'verified');
CREATE UNIQUE INDEX partner_links_external_unique ON partner_links (field, external_id)
  WHERE state IN ('claimed', 'verified') AND external_id IS NOT NULL;
CREATE UNIQUE INDEX partner_links_one_per_field ON partner_links (user_id, field)
  WHERE state IN ('claimed', 'verified');
CREATE INDEX partner_links_state ON partner_links (state, claimed_at);

-- A user says a link someone else holds is theirs. Awarded (the link moves) or dismissed by an admin.
CREATE TABLE partner_disputes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  link_id bigint NOT NULL REFERENCES partner_links (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  value text NOT NULL,
  note text NOT NULL DEFAULT '',
  status text NOT NULL CHECK (status IN ('open', 'awarded', 'dismissed')),
  created_at timestamptz NOT NULL,
  decided_at timestamptz,
  decided_by text,
  decision_reason text
);
CREATE UNIQUE INDEX partner_disputes_one_open ON partner_disputes (link_id, user_id) WHERE status = 'open';

-- Points a lost dispute could not take back (the balance was spent): paid off by later earnings
-- first; while above zero the user cannot spend points.
ALTER TABLE users ADD COLUMN points_debt numeric(18, 2) NOT NULL DEFAULT 0
  CONSTRAINT users_points_debt_non_negative CHECK (points_debt >= 0);

-- The link rows are now the one guard of uniqueness (normalised names and stable ids).
DROP INDEX users_clash_id_unique;
DROP INDEX users_rustmagic_id_unique;
DROP INDEX users_roobet_name_unique;
DROP INDEX users_cases_id_unique;

-- Every existing partner id becomes a claimed link; nothing already credited is taken away.
-- Proof codes: KB- and five characters of a hash (the profile can issue a new one).
INSERT INTO partner_links (user_id, field, value, name_key, state, proof_code, migrated, claimed_at)
SELECT u.id, f.field, trim(f.value), regexp_replace(lower(trim(f.value)), '\s', '', 'g'), 'claimed',
       CASE WHEN f.field = 'roobetName' THEN NULL
            ELSE 'KB-' || upper(substr(md5(u.id::text || f.field || random()::text), 1, 5)) END,
       true, now()
FROM users u
CROSS JOIN LATERAL (VALUES ('clashId', u.clash_id), ('rustMagicId', u.rustmagic_id),
                           ('roobetName', u.roobet_name), ('casesId', u.cases_id)) AS f (field, value)
WHERE f.value IS NOT NULL AND trim(f.value) <> ''
ORDER BY u.created_at, u.id
ON CONFLICT DO NOTHING;

-- Ids that were only unique case-insensitively ("Neon Wolf" beside "neonwolf"): the older account
-- keeps the claim; the later one is recorded as rejected, and its profile field is cleared.
INSERT INTO partner_links (user_id, field, value, name_key, state, migrated, claimed_at, decided_at, decided_by, decision_reason)
SELECT u.id, f.field, trim(f.value), regexp_replace(lower(trim(f.value)), '\s', '', 'g'), 'rejected', true, now(), now(),
       'migration', 'Another account had claimed this player first.'
FROM users u
CROSS JOIN LATERAL (VALUES ('clashId', u.clash_id), ('rustMagicId', u.rustmagic_id),
                           ('roobetName', u.roobet_name), ('casesId', u.cases_id)) AS f (field, value)
WHERE f.value IS NOT NULL AND trim(f.value) <> ''
  AND NOT EXISTS (SELECT 1 FROM partner_links l WHERE l.user_id = u.id AND l.field = f.field);
UPDATE users u SET clash_id = NULL WHERE clash_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM partner_links l WHERE l.user_id = u.id AND l.field = 'clashId' AND l.state = 'claimed');
UPDATE users u SET rustmagic_id = NULL WHERE rustmagic_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM partner_links l WHERE l.user_id = u.id AND l.field = 'rustMagicId' AND l.state = 'claimed');
UPDATE users u SET roobet_name = NULL WHERE roobet_name IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM partner_links l WHERE l.user_id = u.id AND l.field = 'roobetName' AND l.state = 'claimed');
UPDATE users u SET cases_id = NULL WHERE cases_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM partner_links l WHERE l.user_id = u.id AND l.field = 'casesId' AND l.state = 'claimed');
