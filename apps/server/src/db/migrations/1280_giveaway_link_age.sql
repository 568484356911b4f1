-- The giveaway's "linked at least N days" entry filter (docs/features/giveaway.md#entering-and-the-roll):
-- 0 is off; otherwise only a Kick account linked to a site account for at least this many days enters.
ALTER TABLE giveaway_settings ADD COLUMN min_linked_days integer NOT NULL DEFAULT 0
  CONSTRAINT giveaway_min_linked_days CHECK (min_linked_days BETWEEN 0 AND 365);
