/**
 * Admin → Go live (docs/go-live.md): one checklist from a fresh server to a live channel. Each part
 * says whether it is ready and, if not, exactly what to do; values the other side asks for (the
 * Kick webhook URL, the Discord redirect) come with a Copy button. While the demo data is there,
 * its item offers to remove it (after a confirmation).
 */
import Badge from 'react-bootstrap/Badge';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { FaArrowsRotate, FaCircleCheck, FaCircleXmark, FaCopy, FaRegCircle, FaTrashCan } from 'react-icons/fa6';
import type { GoLiveItem, GoLiveState } from '@kickback/common/http/integrations';
import { useDemoDataPreview, useGoLive, useRemoveDemoData, useTestDm, useTestMessage } from './api';
import './integrations.css';

const stateText: Record<GoLiveState, string> = { ready: 'Ready', todo: 'To do', optional: 'Optional' };

function StateIcon({ state }: { state: GoLiveState }) {
  if (state === 'ready') return <FaCircleCheck className="kb-golive-ready" aria-hidden />;
  if (state === 'todo') return <FaCircleXmark className="kb-golive-todo" aria-hidden />;
  return <FaRegCircle className="kb-golive-optional" aria-hidden />;
}

async function copy(value: string) {
  try {
    await navigator.clipboard.writeText(value);
    toast.success('Copied.');
  } catch {
    toast.error('Copying is blocked here: select the text and copy it.');
  }
}

const REMOVE_DEMO_CONFIRM =
  "This removes the demo accounts, products, challenges and boards the demo made. Real users' data stays.";

/** The finished events demo accounts took part in: they stay as announced, the accounts shown as removed. */
function FinishedEvents({ enabled }: { enabled: boolean }) {
  const preview = useDemoDataPreview(enabled);
  if (preview.isPending) return <Spinner animation="border" size="sm" role="status" aria-label="Loading" />;
  const events = preview.data?.finishedEvents ?? [];
  if (events.length === 0) return <p className="mb-0">Demo accounts took part in no finished draw or game.</p>;
  return (
    <>
      <p className="mb-1">
        These finished events demo accounts took part in stay exactly as announced (their verify pages still match); the
        demo players show as &ldquo;removed account&rdquo;:
      </p>
      <ul className="mb-0 kb-golive-finished">
        {events.map((e) => (
          <li key={`${e.kind}-${e.href ?? e.title}`}>
            {e.href ? (
              <Link to={e.href} target="_blank" rel="noopener">
                {e.title}
              </Link>
            ) : (
              e.title
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

function RemoveDemoData() {
  const [asking, setAsking] = useState(false);
  const remove = useRemoveDemoData();
  const confirm = async () => {
    try {
      const { message } = await remove.mutateAsync({});
      toast.success(message);
      setAsking(false);
    } catch {
      // shown by the API wrapper
    }
  };
  return (
    <>
      <div className="mt-2">
        <Button size="sm" variant="danger" onClick={() => setAsking(true)}>
          <FaTrashCan aria-hidden /> <span className="ms-1">Remove demo data</span>
        </Button>
      </div>
      <Modal show={asking} onHide={() => setAsking(false)} centered aria-labelledby="kb-remove-demo-title">
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id="kb-remove-demo-title">
            Remove demo data
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="mb-2">{REMOVE_DEMO_CONFIRM}</p>
          <FinishedEvents enabled={asking} />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setAsking(false)} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void confirm()} disabled={remove.isPending}>
            {remove.isPending && <Spinner animation="border" size="sm" aria-hidden className="me-2" />}
            Remove demo data
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}

/** "Send a test message" / "Send a test DM": what happened, said next to the button. */
function TestButton({ label, use }: { label: string; use: typeof useTestMessage | typeof useTestDm }) {
  const test = use();
  const result = test.data;
  const ok = result?.result === 'posted' || result?.result === 'sent';
  return (
    <div className="mt-2 d-flex flex-wrap align-items-center gap-2">
      <Button size="sm" variant="outline-light" disabled={test.isPending} onClick={() => test.mutate({})}>
        {test.isPending && <Spinner animation="border" size="sm" aria-hidden className="me-2" />}
        {label}
      </Button>
      {result && (
        <span role="status" className="kb-golive-test-result" data-result={result.result}>
          {ok ? (
            <FaCircleCheck className="kb-golive-ready" aria-hidden />
          ) : (
            <FaCircleXmark className="kb-golive-todo" aria-hidden />
          )}{' '}
          {result.message}
        </span>
      )}
    </div>
  );
}

function Item({ item }: { item: GoLiveItem }) {
  return (
    <li className="kb-golive-item" data-golive={item.id} data-state={item.state}>
      <StateIcon state={item.state} />
      <div className="flex-grow-1 min-w-0">
        <div className="d-flex flex-wrap align-items-center gap-2">
          <span className="fw-semibold">{item.label}</span>
          <Badge
            bg={item.state === 'ready' ? 'success' : item.state === 'todo' ? 'danger' : 'secondary'}
            className="kb-golive-badge"
          >
            {stateText[item.state]}
          </Badge>
        </div>
        <div className="kb-golive-detail">{item.detail}</div>
        {item.copy && (
          <div className="kb-golive-copy">
            <code>{item.copy}</code>
            <Button size="sm" variant="outline-light" onClick={() => void copy(item.copy!)}>
              <FaCopy aria-hidden /> <span className="ms-1">Copy</span>
            </Button>
          </div>
        )}
        {item.id === 'demoData' && item.state === 'todo' && <RemoveDemoData />}
        {item.id === 'kick.bot' && <TestButton label="Send a test message" use={useTestMessage} />}
        {item.id === 'discord.bot' && <TestButton label="Send a test DM" use={useTestDm} />}
      </div>
    </li>
  );
}

export default function GoLivePage() {
  const goLive = useGoLive();
  const data = goLive.data ?? null;
  const todo = data?.sections.flatMap((s) => s.items).filter((i) => i.state === 'todo').length ?? 0;
  return (
    <section className="container py-4" style={{ maxWidth: 900 }}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <h1 className="h3 mb-0 me-auto">Go live</h1>
        <Button
          variant="outline-secondary"
          size="sm"
          onClick={() => void goLive.refetch()}
          disabled={goLive.isRefetching}
        >
          {goLive.isRefetching ? <Spinner animation="border" size="sm" aria-hidden /> : <FaArrowsRotate aria-hidden />}
          <span className="ms-2">Check again</span>
        </Button>
      </div>
      <p className="text-body-secondary">
        Everything between this server and a live channel. Keys are entered on{' '}
        <Link to="/admin/settings">Settings → Integrations</Link> (or set in the server&apos;s environment, which wins);
        the rest is the server&apos;s environment (docs/configuration.md).{' '}
        <Link to="/admin/integrations">Integrations</Link> shows each service in detail.
      </p>
      {data && (
        <p className={data.ready ? 'kb-golive-summary ready' : 'kb-golive-summary'} role="status">
          {data.ready ? 'Ready to go live.' : `${todo} ${todo === 1 ? 'thing' : 'things'} to do before going live.`}
        </p>
      )}
      {goLive.isPending && <Spinner animation="border" role="status" aria-label="Loading the checklist" />}
      {data?.sections.map((section) => (
        <section key={section.title} className="kb-card mb-3" aria-labelledby={`kb-golive-${section.title}`}>
          <h2 id={`kb-golive-${section.title}`} className="h5">
            {section.title}
          </h2>
          <ul className="kb-golive-list">
            {section.items.map((item) => (
              <Item key={item.id} item={item} />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
