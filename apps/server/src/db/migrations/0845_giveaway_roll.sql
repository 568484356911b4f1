-- A roll over tens of thousands of participants (docs/features/giveaway.md): the roll reads every participant in one
-- aggregated value, and stores its snapshot compressed.
--
-- draw_entry: the participant's Kick user id and name as JSON strings, comma-separated (one slice of
-- the JSON array the roll reads), written once at entry so the roll does not encode 50,000 names.
ALTER TABLE giveaway_participants ADD COLUMN draw_entry text;
UPDATE giveaway_participants SET draw_entry = to_json(kick_user_id)::text || ',' || to_json(kick_username)::text;
ALTER TABLE giveaway_participants ALTER COLUMN draw_entry SET NOT NULL;

-- snapshot_gz: the exact snapshot text that was hashed (docs/features/giveaway.md#how-a-draw-is-verified),
-- gzip-compressed (a 50,000-entry snapshot is ~3 MB of JSON, ~0.3 MB compressed). Rolls before this
-- migration keep their jsonb `snapshot`. eligible_count: the snapshot's length, so reads of the
-- last roll never load the snapshot.
ALTER TABLE giveaway_draws ADD COLUMN snapshot_gz bytea;
ALTER TABLE giveaway_draws ALTER COLUMN snapshot_gz SET STORAGE EXTERNAL;
ALTER TABLE giveaway_draws ADD COLUMN eligible_count integer;
UPDATE giveaway_draws SET eligible_count = jsonb_array_length(snapshot) WHERE snapshot IS NOT NULL;
