-- One prize gate (docs/features/staff-prize-limits.md): who ran each event is recorded so its
-- prizes can be judged. A slot call remembers who put it in the hunt; a live game (Deal or No
-- Deal, whose row's owner is its player) remembers who created it; a Fulfilment item remembers
-- who ran the event it came from and when, so that person cannot deliver it and an Admin decides
-- when the winner is staff or an account newer than the event.
ALTER TABLE slot_calls ADD COLUMN hunted_by uuid REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE live_games ADD COLUMN created_by uuid REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE fulfilment_items ADD COLUMN run_by uuid REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE fulfilment_items ADD COLUMN run_at timestamptz;
