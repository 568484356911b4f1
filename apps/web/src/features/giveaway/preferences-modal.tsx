/**
 * The cog's 'Giveaway Preferences' modal: the four filters, Subs Luck 1–5 step 1, Chat Activity
 * Filter 0–600 s step 5 (docs/product.md#live-validation,
 * docs/product.md#live-constants-and-limits), and our extras (docs/features/giveaway.md#entering-and-the-roll):
 * re-win cooldown, winners per roll, a point prize and "linked at least N days". The hub's own schema checks every field as it is typed (the server checks
 * every bound again); a field out of range is marked with its message.
 */
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Controller } from 'react-hook-form';
import {
  CHAT_ACTIVITY,
  MIN_LINKED_DAYS,
  PRIZE_POINTS_MAX,
  REWIN_COOLDOWN,
  SUB_LUCK,
  WINNERS_PER_ROLL,
  giveawaySettings,
  type GiveawaySettings,
} from '@kickback/common/hubs/giveaway';
import { FieldError, useZodForm } from '../../lib/forms';

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

/** An empty number field is not 0: it stays NaN, so the schema says what to enter. */
const asNumber = (v: unknown) => (v === '' || v === null || v === undefined ? Number.NaN : Number(v));

/** Mounted when opened, so the draft starts from the settings as they are then. */
export function PreferencesModal({ show, settings, onClose, onSave }: Props) {
  const {
    register,
    control,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useZodForm(giveawaySettings, { defaultValues: settings });
  const submit = handleSubmit(async (values) => {
    if (await onSave(values)) onClose();
  });
  const invalid = (name: keyof GiveawaySettings) => ({
    isInvalid: Boolean(errors[name]),
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': `gw-${name}-error`,
  });

  return (
    <Modal show={show} onHide={onClose} aria-labelledby="giveaway-preferences-title">
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <Modal.Header closeButton>
          <Modal.Title id="giveaway-preferences-title">Giveaway Preferences</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {switches.map(([key, label]) => (
            <Form.Check key={key} type="switch" id={`gw-${key}`} label={label} {...register(key)} />
          ))}
          <Form.Group className="mt-3" controlId="gw-subLuck">
            <Form.Label>Subs Luck: {watch('subLuck')}×</Form.Label>
            <Form.Range
              min={SUB_LUCK.min}
              max={SUB_LUCK.max}
              step={1}
              {...register('subLuck', { setValueAs: asNumber })}
            />
          </Form.Group>
          <Form.Group className="mt-2" controlId="gw-activity">
            <Form.Label>Chat Activity Filter (seconds, 0 = off)</Form.Label>
            <Form.Control
              type="number"
              min={CHAT_ACTIVITY.min}
              max={CHAT_ACTIVITY.max}
              step={CHAT_ACTIVITY.step}
              {...register('chatActivityFilterInSeconds', { setValueAs: asNumber })}
              {...invalid('chatActivityFilterInSeconds')}
            />
            <FieldError
              id="gw-chatActivityFilterInSeconds-error"
              message={errors.chatActivityFilterInSeconds?.message}
            />
          </Form.Group>
          <Form.Group className="mt-2" controlId="gw-cooldown">
            <Form.Label>Re-win cooldown (hours)</Form.Label>
            <Controller
              control={control}
              name="rewinCooldownInSeconds"
              render={({ field }) => (
                <Form.Control
                  type="number"
                  min={0}
                  max={REWIN_COOLDOWN.maxSeconds / 3600}
                  step={1}
                  name={field.name}
                  ref={field.ref}
                  onBlur={field.onBlur}
                  defaultValue={Number.isFinite(field.value) ? field.value / 3600 : ''}
                  onChange={(e) => field.onChange(Math.round(asNumber(e.target.value) * 3600))}
                  {...invalid('rewinCooldownInSeconds')}
                />
              )}
            />
            <FieldError id="gw-rewinCooldownInSeconds-error" message={errors.rewinCooldownInSeconds?.message} />
          </Form.Group>
          <Form.Group className="mt-2" controlId="gw-winners">
            <Form.Label>Winners per roll</Form.Label>
            <Form.Control
              type="number"
              min={WINNERS_PER_ROLL.min}
              max={WINNERS_PER_ROLL.max}
              step={1}
              {...register('winnersPerRoll', { setValueAs: asNumber })}
              {...invalid('winnersPerRoll')}
            />
            <FieldError id="gw-winnersPerRoll-error" message={errors.winnersPerRoll?.message} />
          </Form.Group>
          <Form.Group className="mt-2" controlId="gw-prize">
            <Form.Label>Point prize per linked winner (0 = none)</Form.Label>
            <Form.Control
              type="number"
              min={0}
              max={PRIZE_POINTS_MAX}
              step={0.01}
              {...register('prizePoints', { setValueAs: asNumber })}
              {...invalid('prizePoints')}
            />
            <FieldError id="gw-prizePoints-error" message={errors.prizePoints?.message} />
          </Form.Group>
          <Form.Group className="mt-2" controlId="gw-minLinkedDays">
            <Form.Label>Kick linked at least (days, 0 = off)</Form.Label>
            <Form.Control
              type="number"
              min={MIN_LINKED_DAYS.min}
              max={MIN_LINKED_DAYS.max}
              step={1}
              {...register('minLinkedDays', { setValueAs: asNumber })}
              {...invalid('minLinkedDays')}
            />
            <Form.Text>Only chatters who linked their Kick account to the site this long ago can enter.</Form.Text>
            <FieldError id="gw-minLinkedDays-error" message={errors.minLinkedDays?.message} />
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={isSubmitting}>
            Save
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
