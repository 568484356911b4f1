/**
 * The 24 boxes: shut ones show their number, opened ones their amount (dimmed), the one being
 * opened flips open. The owner's own box is not in the grid: it stands apart (see the page). Only
 * the owner may pick, only in status 2 or 3, never an opened box.
 */
import type { BoxInfo, CaseOpened } from '@kickback/common/hubs/deal-or-no-deal';
import { dollars } from './board-column';

export function BoxGrid({
  boxes,
  primaryBoxId,
  canPick,
  opening,
  onPick,
}: {
  boxes: BoxInfo[];
  primaryBoxId: number | null;
  canPick: boolean;
  opening: CaseOpened | null;
  onPick(id: number): void;
}) {
  return (
    <div className="dond-boxes" role="group" aria-label="Boxes">
      {boxes.map((box) => {
        const mine = box.id === primaryBoxId;
        // The owner's box has left the grid for its podium: its place stays, empty.
        if (mine) return <div key={box.id} className="dond-box-slot" aria-hidden />;
        const isOpening = opening?.boxId === box.id;
        const pickable = canPick && !box.isOpened && !mine;
        const classes = ['dond-box', box.isOpened ? 'is-open' : '', isOpening ? 'is-opening' : '']
          .filter(Boolean)
          .join(' ');
        return (
          <button
            key={box.id}
            type="button"
            className={classes}
            disabled={!pickable}
            onClick={() => onPick(box.id)}
            aria-label={box.isOpened ? `Box ${box.id}, opened: ${dollars(box.amount ?? 0)}` : `Box ${box.id}`}
            data-testid={`box-${box.id}`}
          >
            <span className="dond-box-lid">{box.id}</span>
            {box.isOpened && box.amount !== null && <span className="dond-box-amount">{dollars(box.amount)}</span>}
          </button>
        );
      })}
    </div>
  );
}
