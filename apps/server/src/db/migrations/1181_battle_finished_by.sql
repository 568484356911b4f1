-- A battle records who finished it (docs/features/bonus-buy-battles.md#the-prize-once): the staff
-- member whose action resolved the final, beside its creator (owner_user_id). The prize gate counts
-- both as running it (docs/features/staff-prize-limits.md#which-events-count). Null for a game of
-- another kind, a battle not finished, or one finished before this was recorded.
ALTER TABLE live_games ADD COLUMN finished_by uuid REFERENCES users (id) ON DELETE SET NULL;
