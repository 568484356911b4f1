import { useEffect, useState } from 'react';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import Pagination from 'react-bootstrap/Pagination';
import { auditEndpoints } from '@kickback/common/http/audit';
import { usePaged } from '../../lib/use-paged';
import { EmptyRow } from '../../components/ui/empty-row';

/** The longest admin name the filter takes (the API's limit). */
const ACTOR_MAX = 64;

function compact(value: unknown): string {
  if (value === null || value === undefined) return '—';
  const text = JSON.stringify(value);
  return text.length > 140 ? `${text.slice(0, 140)}…` : text;
}

/** Admin: every admin action, who did it and what changed; the pages are queries keyed by the filters. */
export default function AuditLogPage() {
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const [page, setPage] = useState(1);
  /** The admin name as the query sends it: settles 200 ms after the last keystroke. */
  const [actorQuery, setActorQuery] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setActorQuery(actor.trim()), 200);
    return () => window.clearTimeout(timer);
  }, [actor]);
  const { data } = usePaged(auditEndpoints.list, page, {
    ...(action ? { action } : {}),
    ...(actorQuery ? { actor: actorQuery } : {}),
  });

  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-3">Audit Log</h1>
      <p className="text-body-secondary">Every admin action: who did it, to what, and what changed.</p>
      <div className="d-flex flex-wrap gap-2 mb-3">
        <Form.Select
          aria-label="Filter by action"
          className="w-auto"
          value={action}
          onChange={(e) => {
            setAction(e.target.value);
            setPage(1);
          }}
        >
          <option value="">All actions</option>
          {data?.actions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </Form.Select>
        <Form.Control
          aria-label="Filter by admin"
          placeholder="Admin name…"
          className="w-auto"
          maxLength={ACTOR_MAX}
          value={actor}
          onChange={(e) => {
            setActor(e.target.value);
            setPage(1);
          }}
        />
      </div>
      {/* Focusable so keyboard users can scroll wide entries sideways. */}
      <div className="table-responsive" tabIndex={0} role="region" aria-label="Audit entries">
        <Table variant="dark" hover size="sm" className="align-middle">
          <thead>
            <tr>
              <th>Time</th>
              <th>Admin</th>
              <th>Action</th>
              <th>Target</th>
              <th>Before</th>
              <th>After</th>
            </tr>
          </thead>
          <tbody>
            {data?.items.map((e) => (
              <tr key={e.id}>
                <td className="text-nowrap">{new Date(e.createdAt).toLocaleString()}</td>
                <td>{e.actor}</td>
                <td>
                  <code>{e.action}</code>
                </td>
                <td className="small">{e.targetType ? `${e.targetType} ${e.targetId ?? ''}` : '—'}</td>
                <td className="small font-monospace">{compact(e.before)}</td>
                <td className="small font-monospace">{compact(e.after)}</td>
              </tr>
            ))}
            {data && data.items.length === 0 && <EmptyRow columns={6}>Nothing recorded yet.</EmptyRow>}
          </tbody>
        </Table>
      </div>
      {pages > 1 && (
        <Pagination>
          <Pagination.Prev disabled={page <= 1} onClick={() => setPage(page - 1)} />
          <Pagination.Item active>{`${page} / ${pages}`}</Pagination.Item>
          <Pagination.Next disabled={page >= pages} onClick={() => setPage(page + 1)} />
        </Pagination>
      )}
    </section>
  );
}
