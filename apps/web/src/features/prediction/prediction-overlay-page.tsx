/**
 * `/kick/prediction/overlay` (docs/product.md#live-screens-and-routes): an OBS browser source at 1920×1080, public and
 * read-only, on a transparent page. Hidden in state 0; otherwise the question, the answers in their
 * colours with participant counts and percent bars, the time since start, the `!bet` hint while
 * bets are open, the status label, and in state 2 the winners and losers.
 */
import { useEffect, useState, type CSSProperties } from 'react';
import { useTranslation } from '../../i18n/i18n';
import { FaUser } from 'react-icons/fa6';
import { abbreviatePoints } from '@kickback/common/games/prediction';
import type { PredictionState } from '@kickback/common/hubs/prediction';
import { readOverlayOptions } from './overlay-options';
import { elapsed, percentOf, statusLabel } from './status-label';
import { usePrediction } from './use-prediction';
import './prediction-overlay.css';

const WIDE_AFTER_ANSWERS = 4;
const WIDE_AFTER_CHARS = 28;

/** The page is a layer over the stream: nothing of the site's background may show. */
function useTransparentPage() {
  useEffect(() => {
    document.documentElement.classList.add('kb-transparent');
    return () => document.documentElement.classList.remove('kb-transparent');
  }, []);
}

/** The server's time now, ticking each second while the timer runs. */
function useNow(clockOffset: number, running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [running]);
  return now + clockOffset;
}

function Results({ state }: { state: PredictionState }) {
  const { t } = useTranslation();
  if (state.winnersResult.length === 0 && state.losersResult.length === 0) return null;
  return (
    <div className="kbp-results">
      <div>
        <h2 className="kbp-results-title">{t('prediction.winners')}</h2>
        <ol className="kbp-list kbp-winners" aria-label={t('prediction.winners')}>
          {state.winnersResult.slice(0, 8).map((w) => (
            <li key={w.username}>
              <span className="kbp-name">{w.username}</span>
              <span className="kbp-plus">+{abbreviatePoints(w.points)}</span>
            </li>
          ))}
        </ol>
      </div>
      <div>
        <h2 className="kbp-results-title">{t('prediction.losers')}</h2>
        <ol className="kbp-list kbp-losers" aria-label={t('prediction.losers')}>
          {state.losersResult.slice(0, 8).map((l) => (
            <li key={l.username}>
              <span className="kbp-name">{l.username}</span>
              <span className="kbp-minus">-{abbreviatePoints(l.points)}</span>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

export default function PredictionOverlayPage() {
  useTransparentPage();
  const { t } = useTranslation();
  // An OBS source never navigates: the options are read from the address once per render.
  const options = readOverlayOptions(window.location.search);
  const { state, clockOffset } = usePrediction();
  const now = useNow(clockOffset, state?.state === 1 || state?.state === 3);
  if (!state || state.state === 0)
    return (
      <main className="kbp-stage" aria-label={t('prediction.overlay')}>
        <h1 className="kb-visually-hidden">{t('prediction.title')}</h1>
      </main>
    );

  const total = state.answers.reduce((s, a) => s + a.participantCount, 0);
  // Many or long answers get a wider panel, so every answer stays whole and the panel in the frame.
  const wide = state.answers.length > WIDE_AFTER_ANSWERS || state.answers.some((a) => a.text.length > WIDE_AFTER_CHARS);
  const style = { '--kbp-scale': options.scale } as CSSProperties;
  return (
    <main className="kbp-stage" aria-label={t('prediction.overlay')}>
      <section
        className={`kbp-panel kbp-${options.position} kbp-theme-${options.theme} kbp-state-${state.state}${wide ? ' kbp-wide' : ''}`}
        style={style}
        data-state={state.state}
      >
        <header className="kbp-head">
          <span className="kbp-status">{statusLabel(state)}</span>
          <span className="kbp-timer" aria-label={t('prediction.timeSinceStart')}>
            {elapsed(state.startTime, now)}
          </span>
        </header>
        <h1 className="kbp-question">{state.content}</h1>
        <ul className="kbp-answers">
          {state.answers.map((a) => {
            const percent = percentOf(a.participantCount, total);
            const won = state.state === 2 && state.resultAnswerId === a.id;
            return (
              <li key={a.id} className={won ? 'kbp-answer kbp-won' : 'kbp-answer'} data-answer={a.id}>
                <div className="kbp-answer-line">
                  <span className="kbp-option" style={{ background: a.color }}>
                    {a.id}
                  </span>
                  <span className="kbp-text">{a.text}</span>
                  <span className="kbp-count" title={t('prediction.participants')}>
                    <FaUser aria-hidden className="kbp-icon" />
                    {abbreviatePoints(a.participantCount)}
                  </span>
                  <span className="kbp-pts">{t('prediction.pts', { points: abbreviatePoints(a.points) })}</span>
                  <span className="kbp-percent">{percent}%</span>
                </div>
                <div
                  className="kbp-bar"
                  role="progressbar"
                  aria-valuenow={percent}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-label={`${a.text}: ${percent}%`}
                >
                  <div className="kbp-fill" style={{ width: `${percent}%`, background: a.color }} />
                </div>
              </li>
            );
          })}
        </ul>
        {state.state === 1 && (
          <p className="kbp-hint">
            <code>{t('prediction.betCommand')}</code> <span>{t('prediction.betExample')}</span>
          </p>
        )}
        {state.state === 2 && <Results state={state} />}
      </section>
    </main>
  );
}
