/**
 * /giveaway (Admin; docs/product.md#live-screens-and-routes "Giveaway screen",
 * docs/product.md#live-states-and-transitions spinner, docs/product.md#live-errors-and-toasts
 * toasts): keys, the spinner and its Roll button, the winner panel with the win popup, recent
 * winners, the winners' chat messages, the optional participants list, the clear buttons and the
 * preferences cog.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link } from 'react-router';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { FaGear } from 'react-icons/fa6';
import { celebrate } from '../../components/live/confetti';
import { Avatar } from '../../components/ui/avatar';
import { Spinner } from '../../components/draw/spinner';
import { useGiveaway } from './use-giveaway';
import { WinnerCard } from './winner-panel';
import type { ReelName } from '../../components/draw/reel';
import './giveaway.css';
import { readableKickColour } from '../../components/draw/kick-colour';
import { ParticipantCount } from './participant-count';
import { useTranslation } from '../../i18n/i18n';

// The keys picker (react-select) and the preferences (a form) load beside the page, not before it
// draws (docs/benchmarks.md#first-load-budget-per-page).
const KeysSelect = lazy(() => import('./keys-select'));
const PreferencesModal = lazy(() => import('./preferences-modal').then((m) => ({ default: m.PreferencesModal })));

type KeyOption = { value: string; label: string };

export default function GiveawayPage() {
  const { t } = useTranslation();
  const g = useGiveaway();
  const [newKey, setNewKey] = useState('');
  const [showParticipants, setShowParticipants] = useState(true);
  const [showMessages, setShowMessages] = useState(true);
  const [prefsOpen, setPrefsOpen] = useState(false);
  const [popup, setPopup] = useState(false);

  const names: ReelName[] = useMemo(
    () =>
      g.participants.map((p) => ({
        username: p.username,
        color: p.identity.color,
        avatarUrl: p.account?.avatarUrl ?? null,
      })),
    [g.participants],
  );
  const winner = g.spinRoll?.winners[0];
  const spin =
    g.spinRoll && winner
      ? {
          rollId: g.spinRoll.rollId,
          winner: {
            username: winner.username,
            color: winner.identity.color,
            avatarUrl: winner.account?.avatarUrl ?? null,
          },
        }
      : null;
  const keyOptions: KeyOption[] = (g.state?.keys ?? []).map((k) => ({ value: k.key, label: k.key }));
  const activeKeys = keyOptions.filter((o) => g.state?.keys.find((k) => k.key === o.value)?.isActive);
  const canRoll = g.participants.length > 0 && !g.spinning;

  return (
    <div className="kb-giveaway container py-4">
      <div className="d-flex align-items-center gap-3 mb-3">
        <h1 className="h3 mb-0">{t('giveaway.title')}</h1>
        <ParticipantCount count={g.participants.length} />
        <span className="small text-body-secondary">{g.status === 'connected' ? t('giveaway.live') : g.status}</span>
        <Button
          variant="outline-secondary"
          className="ms-auto"
          aria-label={t('giveaway.preferences')}
          onClick={() => setPrefsOpen(true)}
          disabled={!g.state}
        >
          <FaGear />
        </Button>
      </div>

      <div className="kb-card p-3 mb-3">
        <div className="row g-2 align-items-center">
          <div className="col-md-4">
            <Form
              onSubmit={(e) => {
                e.preventDefault();
                const key = newKey.trim();
                if (!key) return;
                void g.addKey(key).then((ok) => ok && setNewKey(''));
              }}
            >
              <Form.Control
                placeholder={t('giveaway.addKeyPlaceholder')}
                aria-label={t('giveaway.addKey')}
                // Keys go over the hub: typed before it answered, the key would only fail.
                disabled={!g.state}
                value={newKey}
                maxLength={50}
                onChange={(e) => setNewKey(e.target.value)}
              />
            </Form>
          </div>
          <div className="col-md-8" data-testid="keys-select">
            <Suspense fallback={<div className="form-control" style={{ minHeight: 38 }} aria-hidden />}>
              <KeysSelect options={keyOptions} value={activeKeys} onChange={(keys) => void g.setKeys(keys)} />
            </Suspense>
          </div>
        </div>
        {g.state && (
          <div className="small text-body-secondary mt-2 text-truncate">
            {t('giveaway.commitment')} <code data-testid="seed-hash">{g.state.nextSeedHash}</code>
          </div>
        )}
      </div>

      <div className="kb-card p-3 mb-3">
        <Spinner
          names={names}
          roll={spin}
          onLanded={(id) => {
            g.landed(id);
            setPopup(true);
            celebrate();
          }}
        />
        <div className="d-flex gap-2 mt-3 flex-wrap">
          <Button size="lg" onClick={() => void g.rollNow()} disabled={!canRoll}>
            {g.spinning ? t('giveaway.rolling') : t('giveaway.roll')}
          </Button>
          <Button variant="outline-secondary" onClick={() => void g.clearParticipants()}>
            {t('giveaway.clearParticipants')}
          </Button>
          <Button variant="outline-secondary" onClick={() => void g.clearRecentWinners()}>
            {t('giveaway.clearWinners')}
          </Button>
          {g.roll && !g.spinning && (
            <Link className="btn btn-link" to={`/giveaway/verify/${g.roll.rollId}`} target="_blank">
              {t('giveaway.verify')}
            </Link>
          )}
        </div>
      </div>

      {g.shownWinners.length > 0 && !g.spinning && (
        <div className="kb-card p-3 mb-3">
          <h2 className="h5">{t('giveaway.winner')}</h2>
          {g.shownWinners.map((w) => (
            <WinnerCard key={w.kickUserId} winner={w} />
          ))}
        </div>
      )}

      <div className="kb-card p-3 mb-3">
        <h2 className="h6 mb-2">{t('giveaway.recentWinners')}</h2>
        <div className="kb-recent-winners" data-testid="recent-winners">
          {g.recentWinners.length === 0 && <span className="text-body-secondary small">{t('giveaway.noWinners')}</span>}
          {g.recentWinners.map((w, i) => (
            <span
              key={`${w.kickUserId}-${i}`}
              className="kb-recent-chip"
              style={{ color: readableKickColour(w.identity.color) }}
            >
              <Avatar url={w.account?.avatarUrl} size={20} /> {w.username}
            </span>
          ))}
        </div>
      </div>

      <div className="row g-3">
        <div className="col-lg-6">
          <div className="kb-card p-3 h-100">
            <Form.Check
              type="switch"
              id="gw-show-messages"
              label={t('giveaway.winnerMessages')}
              checked={showMessages}
              onChange={(e) => setShowMessages(e.target.checked)}
            />
            {showMessages && (
              <div className="kb-winner-messages" data-testid="winner-messages">
                {g.winnerMessages.length === 0 && (
                  <span className="text-body-secondary small">{t('giveaway.winnerChat')}</span>
                )}
                {g.winnerMessages.map((m, i) => (
                  <div key={i}>
                    <strong style={{ color: readableKickColour(m.sender.identity.color) }}>{m.sender.username}:</strong>{' '}
                    {m.content}
                  </div>
                ))}
              </div>
            )}
          </div>
        </div>
        <div className="col-lg-6">
          <div className="kb-card p-3 h-100">
            <Form.Check
              type="switch"
              id="gw-show-participants"
              label={t('giveaway.participantsList')}
              checked={showParticipants}
              onChange={(e) => setShowParticipants(e.target.checked)}
            />
            {showParticipants && (
              <ul className="kb-participants" data-testid="participants">
                {g.participants.map((p) => (
                  <li key={p.kickUserId} style={{ color: readableKickColour(p.identity.color) }}>
                    {p.username}
                    {p.isSubscriber && <span className="badge text-bg-secondary ms-1">{t('giveaway.sub')}</span>}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      </div>

      {g.state && prefsOpen && (
        <Suspense fallback={null}>
          <PreferencesModal
            show={prefsOpen}
            settings={g.state.settings}
            onClose={() => setPrefsOpen(false)}
            onSave={g.updateSettings}
          />
        </Suspense>
      )}

      <Modal show={popup} onHide={() => setPopup(false)} centered aria-labelledby="giveaway-win-title">
        <Modal.Header closeButton>
          <Modal.Title id="giveaway-win-title">
            {g.shownWinners.length > 1 ? t('giveaway.winners') : t('giveaway.winner')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <div className="kb-win-popup-list" data-testid="win-popup-list">
            {g.shownWinners.map((w) => (
              <WinnerCard key={w.kickUserId} winner={w} />
            ))}
          </div>
        </Modal.Body>
      </Modal>
    </div>
  );
}
