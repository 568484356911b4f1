/**
 * Buying tickets: a quantity picker (up to what the cap leaves), then a confirm dialog with the
 * cost and the balance after. The server's refusal (the cap, the balance) shows as its toast.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { toast } from '../../lib/toast';
import { activityEndpoints } from '@kickback/common/http/activity';
import { raffleEndpoints, type RaffleDetail } from '@kickback/common/http/raffles';
import { centsToNumber, toCents } from '@kickback/common/money';
import { useAuth } from '../../shared/auth/auth-context';
import { formatAmount } from '../../lib/format';
import { useEndpointMutation } from '../../lib/query';

export function BuyTickets({ raffle }: { raffle: RaffleDetail }) {
  const { user, refreshUser } = useAuth();
  const [quantity, setQuantity] = useState(1);
  const [confirming, setConfirming] = useState(false);
  const buy = useEndpointMutation(raffleEndpoints.buy, {
    invalidates: [raffleEndpoints.get, raffleEndpoints.list, raffleEndpoints.mine, activityEndpoints.ledger],
    alsoOnError: true,
  });
  if (!user) return <p className="text-body-secondary">Sign in to buy tickets with your points.</p>;
  // The server's count: the maximum caps bought tickets only (free support tickets come on top).
  const left = raffle.mine?.moreAllowed ?? raffle.maxTicketsPerUser;
  const costCents = toCents(raffle.ticketPrice) * BigInt(quantity);
  const after = centsToNumber(toCents(user.points) - costCents);

  const confirm = async () => {
    try {
      const res = await buy.mutateAsync({ params: { id: raffle.id }, body: { quantity } });
      toast.success(res.message);
      setQuantity(1);
    } catch {
      // The API wrapper showed the server's message.
    }
    setConfirming(false);
    await refreshUser();
  };

  return (
    <Form
      className="d-flex flex-wrap gap-2 align-items-end"
      onSubmit={(e) => {
        e.preventDefault();
        setConfirming(true);
      }}
    >
      <Form.Group controlId="raffle-quantity">
        <Form.Label>Tickets</Form.Label>
        <Form.Control
          type="number"
          min={1}
          max={raffle.maxTicketsPerUser}
          step={1}
          value={quantity}
          onChange={(e) => setQuantity(Math.max(1, Math.floor(Number(e.target.value) || 1)))}
          style={{ width: '8rem' }}
        />
      </Form.Group>
      <Button type="submit">Buy tickets</Button>
      <span className="small text-body-secondary" data-testid="more-allowed">
        {left} more to buy · you have {formatAmount(user.points)} points
      </span>
      <Modal show={confirming} onHide={() => setConfirming(false)} centered aria-labelledby="raffle-confirm-title">
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id="raffle-confirm-title">
            Buy {quantity} ticket{quantity === 1 ? '' : 's'}?
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="mb-1">{raffle.title}</p>
          <p className="mb-1">
            Cost: <strong>{formatAmount(centsToNumber(costCents))}</strong> points
          </p>
          <p className="mb-0" data-testid="balance-after">
            Balance after: <strong>{formatAmount(after)}</strong> points
          </p>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button onClick={() => void confirm()} disabled={buy.isPending}>
            Confirm
          </Button>
        </Modal.Footer>
      </Modal>
    </Form>
  );
}
