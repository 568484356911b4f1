/** An entrant's slot on the battle page (battle-page.tsx loads it beside the battle). */
import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { MAX_SLOT_LENGTH } from '@kickback/common/games/battle';
import { battleEndpoints, battleMessages, slotBody } from '@kickback/common/http/battles';
import type { BattleState } from '@kickback/common/hubs/battle';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useEndpointMutation } from '../../lib/query';
import { toast } from '../../lib/toast';
import { useAuth } from '../../shared/auth/auth-context';

export default function MySlot({ state, battleId }: { state: BattleState; battleId: string }) {
  const { user } = useAuth();
  const me = user ? state.entrants.find((e) => e.userId === user.openId) : undefined;
  const form = useZodForm(slotBody, { defaultValues: { slot: me?.slot ?? '' } });
  const save = useEndpointMutation(battleEndpoints.slot);
  const saved = me?.slot ?? '';
  useEffect(() => form.reset({ slot: saved }), [saved, form]);
  if (!me || state.status === 'finished' || state.status === 'cancelled') return null;
  const submit = form.handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ params: { id: battleId }, body });
      toast.success(battleMessages.slotSaved);
    } catch (err) {
      setServerErrors(err, form.setError, ['slot']);
    }
  });
  const error = form.formState.errors.slot?.message;
  return (
    <Form className="d-flex gap-2 align-items-start my-2" onSubmit={(e) => void submit(e)} noValidate>
      <Form.Group controlId="battle-my-slot" className="flex-grow-1">
        <Form.Label className="mb-1">My slot</Form.Label>
        <Form.Control
          maxLength={MAX_SLOT_LENGTH}
          placeholder="e.g. Gates of Olympus"
          isInvalid={!!error}
          aria-describedby="battle-my-slot-error"
          {...form.register('slot')}
        />
        <FieldError id="battle-my-slot-error" message={error} />
      </Form.Group>
      <Button type="submit" className="mt-4" disabled={save.isPending}>
        Save slot
      </Button>
    </Form>
  );
}
