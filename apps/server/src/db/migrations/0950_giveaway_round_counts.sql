-- The number of participants of each giveaway round, kept up to date by the database itself (issue
-- 14): the admin state and the overlay read one row instead of counting the round (a count over
-- 60,000 entries, four times a second while keys pour in, was work growing with the round).
--
-- Statement-level triggers with transition tables: one upsert per INSERT or DELETE statement on
-- giveaway_participants (a batch of entries is one statement), whoever writes — the batched entry,
-- the general path, a test or a benchmark filling a round — so the count is exact by construction.
CREATE TABLE giveaway_round_counts (
  round_id bigint PRIMARY KEY,
  participants integer NOT NULL
);

CREATE FUNCTION giveaway_round_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO giveaway_round_counts AS c (round_id, participants)
  SELECT round_id, count(*) FROM added GROUP BY round_id
  ON CONFLICT (round_id) DO UPDATE SET participants = c.participants + EXCLUDED.participants;
  RETURN NULL;
END $$;

CREATE FUNCTION giveaway_round_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE giveaway_round_counts AS c SET participants = c.participants - r.n
  FROM (SELECT round_id, count(*) AS n FROM removed GROUP BY round_id) r
  WHERE c.round_id = r.round_id;
  RETURN NULL;
END $$;

CREATE TRIGGER giveaway_participants_count_added AFTER INSERT ON giveaway_participants
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION giveaway_round_counts_added();
CREATE TRIGGER giveaway_participants_count_removed AFTER DELETE ON giveaway_participants
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION giveaway_round_counts_removed();

INSERT INTO giveaway_round_counts (round_id, participants)
SELECT round_id, count(*) FROM giveaway_participants GROUP BY round_id;
