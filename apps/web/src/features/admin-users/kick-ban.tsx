/**
 * Admin → Users, a user's Kick ban: a badge (permanent, or a timeout with its end), the reason, and
 * Lift — Kick sends no unban event, so an admin who unbanned someone on Kick (or wants them back)
 * lifts it here. While it lasts the account enters no giveaway, earns no chat points and cannot
 * `!bet` or `!guess`.
 */
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import type { AdminUser } from '@kickback/common/http/admin-users';
import { useLiftKickBan } from './api';

function until(iso: string): string {
  return new Date(iso).toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function KickBan({ user, post }: { user: AdminUser; post: (change: Promise<{ message: string }>) => void }) {
  const lift = useLiftKickBan();
  const ban = user.kickBan;
  if (!ban) return null;
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mt-1" data-testid="kick-ban">
      <Badge bg="warning" text="dark" title={ban.reason ?? undefined}>
        {ban.expiresAt ? `timed out on Kick until ${until(ban.expiresAt)}` : 'banned on Kick'}
      </Badge>
      {ban.reason && <span className="small text-body-secondary">{ban.reason}</span>}
      <Button
        size="sm"
        variant="outline-warning"
        disabled={lift.isPending}
        aria-label={`Lift the Kick ban of ${user.username}`}
        onClick={() => post(lift.mutateAsync({ params: { id: user.id } }))}
      >
        Lift
      </Button>
    </div>
  );
}
