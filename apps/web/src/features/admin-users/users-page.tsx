/**
 * Admin → Users (/admin/users): find users by name or any linked id; see balances and linked
 * accounts; grant or deduct points or gems with a required reason; change role; mark an account
 * excluded (bots and alts earn nothing, never rank, never win). Everything is audited server-side.
 */
import { useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import { FaMagnifyingGlass } from 'react-icons/fa6';
import {
  ADJUSTMENT_REASON_MAX,
  adminUserEndpoints,
  balanceAdjustmentForm,
  type AdminUser,
  type BalanceAdjustmentForm,
} from '@kickback/common/http/admin-users';
import { roles, type Role } from '@kickback/common/http/auth';
import { useAuth } from '../../shared/auth/auth-context';
import { Avatar } from '../../components/ui/avatar';
import { LinkedAccountList } from '../../components/ui/linked-accounts';
import { Pager } from '../../components/ui/pager';
import { formatAmount } from '../../lib/format';
import { CharCounter, FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { usePaged } from '../../lib/use-paged';
import { useAdjustBalance, useSetExcluded, useSetRole } from './api';
import { KickBan } from './kick-ban';
import { EmptyRow } from '../../components/ui/empty-row';

const adjustFields = ['currency', 'amount', 'reason'] as const;

function AdjustModal({ user, onClose, onDone }: { user: AdminUser | null; onClose(): void; onDone(): void }) {
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useZodForm(balanceAdjustmentForm, {
    defaultValues: { direction: 'grant', currency: 'points', amount: '', reason: '' } satisfies BalanceAdjustmentForm,
  });
  const adjust = useAdjustBalance();
  const mode = watch('direction');
  const reason = watch('reason') ?? '';

  const submit = handleSubmit(async ({ direction, currency, amount, reason }) => {
    if (!user) return;
    try {
      const { message } = await adjust.mutateAsync({
        params: { id: user.id },
        body: { currency, amount: direction === 'deduct' ? `-${amount}` : amount, reason },
      });
      toast.success(message);
      onDone();
    } catch (err) {
      setServerErrors(err, setError, adjustFields);
    }
  });
  const invalid = (name: (typeof adjustFields)[number]) => ({
    isInvalid: Boolean(errors[name]),
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': `adjust-${name}-error`,
  });

  return (
    <Modal show={user !== null} onHide={onClose} centered>
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5">
            Adjust balance: {user?.username}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {user && (
            <p className="text-body-secondary">
              Now {formatAmount(user.points)} points · {formatAmount(user.gems)} gems
            </p>
          )}
          <div className="d-flex gap-3 mb-3" role="radiogroup" aria-label="Grant or deduct">
            <Form.Check type="radio" id="adjust-grant" label="Grant" value="grant" {...register('direction')} />
            <Form.Check type="radio" id="adjust-deduct" label="Deduct" value="deduct" {...register('direction')} />
          </div>
          <div className="row g-3 mb-3">
            <Form.Group className="col-7" controlId="adjust-amount">
              <Form.Label>Amount</Form.Label>
              <Form.Control inputMode="decimal" placeholder="e.g. 500" {...register('amount')} {...invalid('amount')} />
              <FieldError id="adjust-amount-error" message={errors.amount?.message} />
            </Form.Group>
            <Form.Group className="col-5" controlId="adjust-currency">
              <Form.Label>Currency</Form.Label>
              <Form.Select {...register('currency')} {...invalid('currency')}>
                <option value="points">Points</option>
                <option value="gems">Gems</option>
              </Form.Select>
              <FieldError id="adjust-currency-error" message={errors.currency?.message} />
            </Form.Group>
          </div>
          <Form.Group controlId="adjust-reason">
            <Form.Label>Reason</Form.Label>
            <Form.Control
              {...register('reason')}
              {...invalid('reason')}
              maxLength={ADJUSTMENT_REASON_MAX}
              placeholder="Required, e.g. Won the stream quiz"
            />
            <FieldError id="adjust-reason-error" message={errors.reason?.message} />
            <div className="d-flex justify-content-between gap-2">
              <Form.Text>Shown to the user in My activity and kept in the audit log.</Form.Text>
              <CharCounter id="adjust-reason-count" length={String(reason).length} max={ADJUSTMENT_REASON_MAX} />
            </div>
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant={mode === 'deduct' ? 'danger' : 'primary'} disabled={isSubmitting}>
            {mode === 'deduct' ? 'Deduct' : 'Grant'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

export default function UsersPage() {
  const { user: me } = useAuth();
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  const [page, setPage] = useState(1);
  const [adjusting, setAdjusting] = useState<AdminUser | null>(null);
  useEffect(() => {
    const t = window.setTimeout(() => setDebounced(query.trim()), 250);
    return () => window.clearTimeout(t);
  }, [query]);
  const { data } = usePaged(adminUserEndpoints.list, page, debounced ? { query: debounced } : {});

  const setRole = useSetRole();
  const setExcluded = useSetExcluded();
  /** A change's answer is toasted; the list refetches either way (by invalidation, also when refused). */
  const post = async (change: Promise<{ message: string }>) => {
    try {
      const { message } = await change;
      toast.success(message);
    } catch {
      // shown by the API wrapper
    }
  };

  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1">Users</h1>
      <p className="text-body-secondary">
        Balances, linked accounts, roles. Excluded accounts (bots, alts) earn nothing, never rank and never win.
      </p>
      <InputGroup className="mb-3" style={{ maxWidth: '28rem' }}>
        <InputGroup.Text>
          <FaMagnifyingGlass aria-hidden />
        </InputGroup.Text>
        <Form.Control
          aria-label="Search users"
          placeholder="Name, SteamID, Kick, Discord or partner id…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setPage(1);
          }}
        />
      </InputGroup>
      <div className="kb-card p-0 table-responsive" tabIndex={0} role="region" aria-label="Users">
        <Table variant="dark" hover className="align-middle mb-0" data-testid="users-table">
          <thead>
            <tr>
              <th>User</th>
              <th className="text-end">Points</th>
              <th className="text-end">Gems</th>
              <th>Linked accounts</th>
              <th>Role</th>
              <th>Excluded</th>
              <th className="text-end">Balance</th>
            </tr>
          </thead>
          <tbody>
            {data?.items.map((u) => (
              <tr key={u.id} data-user={u.username}>
                <td>
                  <span className="d-inline-flex align-items-center gap-2">
                    <Avatar url={u.avatarUrl} size={28} />
                    <span className="fw-semibold">{u.username}</span>
                  </span>
                  {u.excluded && (
                    <Badge bg="danger" className="ms-2">
                      excluded
                    </Badge>
                  )}
                  <KickBan user={u} post={(change) => void post(change)} />
                </td>
                <td className="text-end fw-semibold kb-accent" data-testid="user-points">
                  {formatAmount(u.points)}
                </td>
                <td className="text-end">{formatAmount(u.gems)}</td>
                <td>
                  <LinkedAccountList user={u} />
                </td>
                <td>
                  <Form.Select
                    size="sm"
                    aria-label={`Role of ${u.username}`}
                    value={u.role}
                    disabled={u.id === me?.openId}
                    onChange={(e) =>
                      void post(setRole.mutateAsync({ params: { id: u.id }, body: { role: e.target.value as Role } }))
                    }
                  >
                    {roles.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </Form.Select>
                </td>
                <td>
                  <Form.Check
                    type="switch"
                    id={`excluded-${u.id}`}
                    aria-label={`Exclude ${u.username}`}
                    checked={u.excluded}
                    onChange={(e) =>
                      void post(setExcluded.mutateAsync({ params: { id: u.id }, body: { excluded: e.target.checked } }))
                    }
                  />
                </td>
                <td className="text-end">
                  <Button
                    size="sm"
                    variant="outline-secondary"
                    onClick={() => setAdjusting(u)}
                    aria-label={`Adjust balance of ${u.username}`}
                  >
                    Adjust
                  </Button>
                </td>
              </tr>
            ))}
            {data && data.items.length === 0 && <EmptyRow columns={7}>No user matches.</EmptyRow>}
          </tbody>
        </Table>
      </div>
      {data && (
        <div className="mt-3">
          <Pager label="User pages" page={page} total={data.total} pageSize={data.pageSize} onPage={setPage} />
        </div>
      )}
      <AdjustModal
        key={adjusting?.id ?? 'closed'}
        user={adjusting}
        onClose={() => setAdjusting(null)}
        onDone={() => setAdjusting(null)}
      />
    </section>
  );
}
