/**
 * Opening bonuses, keyboard-first: the bonus to open has the payout field, focused once guessing
 * is closed; Enter opens it and the next bonus's field takes the focus.
 */
import { useState, type FormEvent } from 'react';
import Form from 'react-bootstrap/Form';
import { huntEndpoints } from '@kickback/common/http/hunt';
import type { HuntView } from '@kickback/common/hubs/hunt';
import { useEndpointMutation } from '../../lib/query';
import { BonusTable } from './bonus-table';

type OpenMutation = ReturnType<typeof useOpenBonus>;

/** On the list, not the field: the field is replaced by the next bonus's as soon as this one opens. */
function useOpenBonus(onChanged: (view: HuntView) => void) {
  return useEndpointMutation(huntEndpoints.openBonus, { onSuccess: onChanged });
}

function PayoutField({ hunt, bonusId, open }: { hunt: HuntView; bonusId: string; open: OpenMutation }) {
  const [payout, setPayout] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (open.isPending) return;
    open.mutate({
      params: { huntId: hunt.id, bonusId },
      body: { payout: payout.trim() === '' ? Number.NaN : Number(payout) },
    });
  };
  return (
    <Form onSubmit={submit} className="d-flex justify-content-end" aria-label="Open this bonus">
      <Form.Control
        size="sm"
        className="kb-hunt-payout text-end"
        inputMode="decimal"
        aria-label="Payout"
        placeholder="Payout, Enter"
        value={payout}
        onChange={(e) => setPayout(e.target.value)}
        // Read-only, not disabled, while a payout is sent: the next field mounts during the call's
        // success and must be able to take the focus.
        readOnly={open.isPending}
        autoFocus={hunt.guessing.state === 'closed'}
      />
    </Form>
  );
}

export function OpenBonuses({ hunt, onChanged }: { hunt: HuntView; onChanged(view: HuntView): void }) {
  const open = useOpenBonus(onChanged);
  return (
    <BonusTable
      hunt={hunt}
      label="Bonuses"
      empty="Add the bonuses as they are bought."
      payoutCell={(b) =>
        b.id === hunt.currentBonusId ? (
          // A new field (focused) for each bonus, and again when guessing closes: while it is
          // open the admin is still adding bonuses, and the focus stays in that form.
          <PayoutField key={`${b.id}:${hunt.guessing.state}`} hunt={hunt} bonusId={b.id} open={open} />
        ) : null
      }
    />
  );
}
