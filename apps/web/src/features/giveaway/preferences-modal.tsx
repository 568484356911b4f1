/**
 * The cog's 'Giveaway Preferences' modal: the four filters, Subs Luck 1–5 step 1, Chat Activity
 * Filter 0–600 s step 5 (spec part 2 §5, §9), and the extras: re-win cooldown, winners
 * per roll and a point prize. The server checks every bound again and refuses out-of-range values.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { CHAT_ACTIVITY, SUB_LUCK, WINNERS_PER_ROLL, type GiveawaySettings } from '@kickback/common/hubs/giveaway';

interface Props {
  show: boolean;
  settings: GiveawaySettings;
  onClose(): void;
  onSave(settings: GiveawaySettings): Promise<boolean>;
}

const switches = [
  ['isSubOnly', 'Subscribers only'],
  ['isClashIdLinkedOnly', 'Verified Clash ID only'],
  ['isRustMagicCodeOnly', 'On the RustMagic code only'],
  ['isRoobetCodeOnly', 'On the Roobet code only'],
] as const;

/** Mounted when opened, so the draft starts from the settings as they are then. */
export function PreferencesModal({ show, settings, onClose, onSave }: Props) {
  const [draft, setDraft] = useState(settings);
  const [busy, setBusy] = useState(false);
  const num = (key: keyof GiveawaySettings) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setDraft((d) => ({ ...d, [key]: e.target.value === '' ? 0 : Number(e.target.value) }));

  return (
    <Modal show={show} onHide={onClose} aria-labelledby="giveaway-preferences-title">
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          void onSave(draft).then((ok) => {
            setBusy(false);
            if (ok) onClose();
          });
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title id="giveaway-preferences-title">Giveaway Preferences</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {switches.map(([key, label]) => (
            <Form.Check
              key={key}
              type="switch"
              id={`gw-${key}`}
              label={label}
              checked={draft[key]}
              onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.checked }))}
            />
          ))}
          <Form.Group className="mt-3" controlId="gw-subLuck">
            <Form.Label>Subs Luck: {draft.subLuck}×</Form.Label>
            <Form.Range
              min={SUB_LUCK.min}
              max={SUB_LUCK.max}
              step={1}
              value={draft.subLuck}
              onChange={num('subLuck')}
            />
          </Form.Group>
          <Form.Group className="mt-2" controlId="gw-activity">
            <Form.Label>Chat Activity Filter (seconds, 0 = off)</Form.Label>
            <Form.Control
              type="number"
              min={CHAT_ACTIVITY.min}
              max={CHAT_ACTIVITY.max}
              step={CHAT_ACTIVITY.step}
              value={draft.chatActivityFilterInSeconds}
              onChange={num('chatActivityFilterInSeconds')}
            />
          </Form.Group>
          <Form.Group className="mt-2" controlId="gw-cooldown">
            <Form.Label>Re-win cooldown (hours)</Form.Label>
            <Form.Control
              type="number"
              min={0}
              max={720}
              step={1}
              value={draft.rewinCooldownInSeconds / 3600}
              onChange={(e) =>
                setDraft((d) => ({ ...d, rewinCooldownInSeconds: Math.round(Number(e.target.value) * 3600) }))
              }
            />
          </Form.Group>
          <Form.Group className="mt-2" controlId="gw-winners">
            <Form.Label>Winners per roll</Form.Label>
            <Form.Control
              type="number"
              min={WINNERS_PER_ROLL.min}
              max={WINNERS_PER_ROLL.max}
              step={1}
              value={draft.winnersPerRoll}
              onChange={num('winnersPerRoll')}
            />
          </Form.Group>
          <Form.Group className="mt-2" controlId="gw-prize">
            <Form.Label>Point prize per linked winner (0 = none)</Form.Label>
            <Form.Control type="number" min={0} step={0.01} value={draft.prizePoints} onChange={num('prizePoints')} />
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            Save
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
