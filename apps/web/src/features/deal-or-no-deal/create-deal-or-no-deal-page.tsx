/**
 * /createdealornodeal (admin, spec part 2 §2 "Create Deal Or No Deal form"): a searchable Player 1
 * picker, the Private switch and Create. No reward field shows; the form still sends one (0: the
 * prize is what the player wins). The board is the spec's 24 default amounts; a collapsed editor
 * lets an admin change them first. Create is disabled while submitting and enabled again on
 * failure (the API wrapper told why); success toasts and goes to the game.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import Button from 'react-bootstrap/Button';
import Collapse from 'react-bootstrap/Collapse';
import Form from 'react-bootstrap/Form';
import { BOX_COUNT, DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import { dealOrNoDealEndpoints, MAX_BOX_AMOUNT } from '@kickback/common/http/deal-or-no-deal';
import type { UserOption } from '@kickback/common/http/users';
import { UserSelect } from '../../components/ui/user-select';
import { api } from '../../lib/api';
import { RecentDealOrNoDealGames } from './recent-games';
import { CREATED_STATE } from './created-toast';

/** The reward the spec's form sends although it shows no field for it. */
const FORM_REWARD = 0;

export default function CreateDealOrNoDealPage() {
  const navigate = useNavigate();
  const [player, setPlayer] = useState<UserOption | null>(null);
  const [isPrivate, setIsPrivate] = useState(false);
  const [amounts, setAmounts] = useState<string[]>(DEFAULT_AMOUNTS.map(String));
  const [editing, setEditing] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    try {
      const { gameId } = await api(dealOrNoDealEndpoints.create, {
        body: {
          // Without a player it goes as null: the server's answer names the field (as the spec's form does).
          playerUserId: (player?.value ?? null) as string,
          isPrivate,
          reward: FORM_REWARD,
          Amounts: amounts.map((a) => (a.trim() === '' ? Number.NaN : Number(a))),
        },
      });
      // The game page is outside the layout, so its own toast area says it (see CREATED_STATE).
      navigate(`/game/dealornodeal/${gameId}`, { state: CREATED_STATE });
    } catch {
      setSubmitting(false);
    }
  };

  const setAmount = (i: number, value: string) => setAmounts((list) => list.map((a, j) => (j === i ? value : a)));

  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1">Create Deal Or No Deal</h1>
      <p className="text-body-secondary mb-4">
        One player, 24 boxes. They keep one box, open the others round by round and answer the bank&apos;s offers. What
        they win is a prize in dollars the team delivers.
      </p>
      <Form className="kb-card" style={{ maxWidth: '40rem' }} onSubmit={(e) => void submit(e)}>
        <Form.Group className="mb-3">
          <Form.Label htmlFor="dond-player">Player 1</Form.Label>
          <UserSelect inputId="dond-player" value={player} onChange={setPlayer} />
        </Form.Group>
        <Form.Check
          type="switch"
          id="dond-private"
          className="mb-3"
          label="Private"
          checked={isPrivate}
          onChange={(e) => setIsPrivate(e.target.checked)}
        />
        <Button
          variant="link"
          className="px-0 mb-2"
          onClick={() => setEditing((v) => !v)}
          aria-expanded={editing}
          aria-controls="dond-amounts"
        >
          {editing ? 'Hide the board' : 'Change the board'}
        </Button>
        <Collapse in={editing}>
          <div id="dond-amounts">
            <p className="small text-body-secondary">
              {BOX_COUNT} amounts in dollars, each above 0 and at most {MAX_BOX_AMOUNT.toLocaleString('en-US')}, with at
              most 2 decimals. The boxes are shuffled when the game is created.
            </p>
            <div className="row row-cols-3 row-cols-sm-4 g-2 mb-3">
              {amounts.map((a, i) => (
                <div className="col" key={i}>
                  <Form.Control
                    type="number"
                    step="any"
                    inputMode="decimal"
                    size="sm"
                    aria-label={`Amount ${i + 1}`}
                    value={a}
                    onChange={(e) => setAmount(i, e.target.value)}
                  />
                </div>
              ))}
            </div>
            <Button
              variant="outline-secondary"
              size="sm"
              className="mb-3"
              onClick={() => setAmounts(DEFAULT_AMOUNTS.map(String))}
            >
              Reset to the default board
            </Button>
          </div>
        </Collapse>
        <div>
          <Button type="submit" disabled={submitting}>
            Create
          </Button>
        </div>
      </Form>
      <RecentDealOrNoDealGames />
    </section>
  );
}
