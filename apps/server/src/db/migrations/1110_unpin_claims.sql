-- A partner link is pinned to the partner's stable id only once it is proven
-- (docs/features/partner-links.md#rules). Before this, a claim was pinned when it was saved and on
-- every poll to the id of whichever board row carried the typed name: a stranger's id, when the name
-- was his, which then refused the stranger his own id and held his wagers for the claimer. Every
-- pin on an unproven claim is undone; verified links keep theirs.
UPDATE partner_links SET external_id = NULL WHERE state = 'claimed' AND external_id IS NOT NULL;
