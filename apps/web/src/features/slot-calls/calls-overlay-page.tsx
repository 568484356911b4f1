/**
 * `/overlay/calls`: an OBS browser source (1920×1080, sized in units of the viewport's height),
 * public and read-only on a transparent page: the call up next, the queue's length, and how to call.
 */
import { useEffect } from 'react';
import { useSlotCalls } from './use-slot-calls';
import './calls-overlay.css';

export default function CallsOverlayPage() {
  useEffect(() => {
    document.documentElement.classList.add('kb-transparent');
    return () => document.documentElement.classList.remove('kb-transparent');
  }, []);
  const { state } = useSlotCalls();
  const next = state?.nextUp ?? null;
  const waiting = state?.queue.length ?? 0;
  return (
    <main className="kbc-stage" data-testid="calls-overlay" aria-label="Slot calls overlay">
      <div className="kbc-panel">
        <h1 className="kbc-title">Slot calls</h1>
        <p className="kbc-next" data-testid="calls-overlay-next">
          {next ? (
            <>
              <span className="kbc-label">Next up</span>
              <span className="kbc-slot">{next.slot}</span>
              <span className="kbc-caller">called by {next.caller}</span>
            </>
          ) : (
            <span className="kbc-label">No calls yet</span>
          )}
        </p>
        <p className="kbc-foot">
          <span data-testid="calls-overlay-count">{waiting} in the queue</span>
          <span className="kbc-hint">{state && !state.open ? 'calls are closed' : 'type !sr [SLOT]'}</span>
        </p>
      </div>
    </main>
  );
}
