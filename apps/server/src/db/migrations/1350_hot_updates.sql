-- Room on each page of milestone progress for the next version of its rows
-- (docs/benchmarks.md#milestones): a refresh writes a cycle's rows, then its payouts rewrite most of
-- them at once. An update that fits on its row's page (and changes no indexed column) is a HOT
-- update, with no new entry in the table's two indexes; on a full page, as every freshly written
-- one is, the new version goes elsewhere and is indexed again. Applies to pages written from now on.
ALTER TABLE milestone_progress SET (fillfactor = 80);
