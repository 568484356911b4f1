/**
 * Admin → Commands (Moderators too; docs/features/custom-commands.md): the custom chat commands
 * with their aliases, template (checked and previewed as it is typed, checked again by the server
 * when saved), cooldowns, who may use them, live-only, cost and usage; the built-in commands with
 * the aliases that rename them; and the timers.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import {
  commandEndpoints,
  commandPermissions,
  commandPermissionText,
  linkPages,
  parseTemplate,
  randomIn,
  renderTemplate,
  templateVariables,
  type BuiltinCommand,
  type ChatTimer,
  type CommandPermission,
  type CustomCommand,
  type TemplatePart,
} from '@kickback/common/http/chat-commands';
import { formatAmount } from '@kickback/common/money';
import { ApiError } from '../../lib/api';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

const words = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((w) => w.trim())
    .filter((w) => w !== '');

/** What the page shows for a template: the sample a viewer "viewer" calling "!cmd someone" gets. */
function preview(template: string, sites: readonly string[]): { text: string; problems: string[] } {
  const { parts, problems } = parseTemplate(template, sites);
  if (problems.length > 0) return { text: '', problems };
  const sample = (p: TemplatePart): string => {
    switch (p.name) {
      case 'user':
        return 'viewer';
      case 'target':
        return 'someone';
      case 'balance':
        return formatAmount(1500);
      case 'rank':
        return '#3';
      case 'wager':
        return '$12,345.00';
      case 'link':
        return `${window.location.origin}${linkPages[p.arg ?? ''] ?? '/'}`;
      case 'uptime':
        return '1h 23m';
      case 'count':
        return '42';
      case 'random':
        return randomIn(p.arg ?? '');
      default:
        return '?';
    }
  };
  return { text: renderTemplate(parts, sample), problems: [] };
}

const emptyCommand = {
  name: '',
  aliases: '',
  response: '',
  userCooldownSeconds: '0',
  globalCooldownSeconds: '0',
  permission: 'everyone' as CommandPermission,
  liveOnly: false,
  cost: '0',
  enabled: true,
};
type CommandForm = typeof emptyCommand;

const asForm = (c: CustomCommand): CommandForm => ({
  name: c.name,
  aliases: c.aliases.join(' '),
  response: c.response,
  userCooldownSeconds: String(c.userCooldownSeconds),
  globalCooldownSeconds: String(c.globalCooldownSeconds),
  permission: c.permission,
  liveOnly: c.liveOnly,
  cost: c.cost,
  enabled: c.enabled,
});

function CommandEditor({
  editing,
  sites,
  onDone,
}: {
  editing: CustomCommand | null;
  sites: readonly string[];
  onDone(): void;
}) {
  const [form, setForm] = useState<CommandForm>(editing ? asForm(editing) : emptyCommand);
  const [error, setError] = useState<string | null>(null);
  const invalidates = [commandEndpoints.overview];
  const done = () => (toast.success('Command saved.'), setError(null), onDone());
  const create = useEndpointMutation(commandEndpoints.create, { invalidates, onSuccess: done });
  const update = useEndpointMutation(commandEndpoints.update, { invalidates, onSuccess: done });
  const set = <K extends keyof CommandForm>(key: K, value: CommandForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const shown = preview(form.response, sites);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = {
      name: form.name,
      aliases: words(form.aliases),
      response: form.response,
      userCooldownSeconds: Number(form.userCooldownSeconds),
      globalCooldownSeconds: Number(form.globalCooldownSeconds),
      permission: form.permission,
      liveOnly: form.liveOnly,
      cost: form.cost.trim() === '' ? 0 : form.cost.trim(),
      enabled: form.enabled,
    };
    try {
      if (editing) await update.mutateAsync({ params: { id: editing.id }, body });
      else await create.mutateAsync({ body });
    } catch (err) {
      setError(err instanceof ApiError ? err.serverMessage : 'The command could not be saved.');
    }
  };
  const busy = create.isPending || update.isPending;
  return (
    <Form className="kb-card mb-3" onSubmit={(e) => void submit(e)} aria-label="Command" noValidate>
      <h2 className="h5">{editing ? `Edit !${editing.name}` : 'New command'}</h2>
      <div className="row g-2">
        <Form.Group className="col-sm-6 col-lg-3" controlId="cmd-name">
          <Form.Label>Name (typed as !name)</Form.Label>
          <Form.Control value={form.name} onChange={(e) => set('name', e.target.value)} maxLength={31} required />
        </Form.Group>
        <Form.Group className="col-sm-6 col-lg-3" controlId="cmd-aliases">
          <Form.Label>Aliases (space separated)</Form.Label>
          <Form.Control value={form.aliases} onChange={(e) => set('aliases', e.target.value)} />
        </Form.Group>
        <Form.Group className="col-sm-6 col-lg-3" controlId="cmd-permission">
          <Form.Label>Who may use it</Form.Label>
          <Form.Select value={form.permission} onChange={(e) => set('permission', e.target.value as CommandPermission)}>
            {commandPermissions.map((p) => (
              <option key={p} value={p}>
                {commandPermissionText[p]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-sm-6 col-lg-3" controlId="cmd-cost">
          <Form.Label>Cost (points, 0 = free)</Form.Label>
          <Form.Control
            type="number"
            min={0}
            step={0.01}
            inputMode="decimal"
            value={form.cost}
            onChange={(e) => set('cost', e.target.value)}
          />
        </Form.Group>
        <Form.Group className="col-sm-6 col-lg-3" controlId="cmd-user-cooldown">
          <Form.Label>Per-user cooldown (seconds)</Form.Label>
          <Form.Control
            type="number"
            min={0}
            max={86400}
            value={form.userCooldownSeconds}
            onChange={(e) => set('userCooldownSeconds', e.target.value)}
          />
        </Form.Group>
        <Form.Group className="col-sm-6 col-lg-3" controlId="cmd-global-cooldown">
          <Form.Label>Global cooldown (seconds)</Form.Label>
          <Form.Control
            type="number"
            min={0}
            max={86400}
            value={form.globalCooldownSeconds}
            onChange={(e) => set('globalCooldownSeconds', e.target.value)}
          />
        </Form.Group>
        <div className="col-sm-6 col-lg-3 d-flex flex-column justify-content-end">
          <Form.Check
            id="cmd-live-only"
            type="switch"
            label="Only while live"
            checked={form.liveOnly}
            onChange={(e) => set('liveOnly', e.target.checked)}
          />
          <Form.Check
            id="cmd-enabled"
            type="switch"
            label="Enabled"
            checked={form.enabled}
            onChange={(e) => set('enabled', e.target.checked)}
          />
        </div>
        <Form.Group className="col-12" controlId="cmd-response">
          <Form.Label>Response</Form.Label>
          <Form.Control
            as="textarea"
            rows={2}
            value={form.response}
            onChange={(e) => set('response', e.target.value)}
            aria-describedby="cmd-response-help cmd-preview"
          />
          <Form.Text id="cmd-response-help">
            Variables:{' '}
            {Object.keys(templateVariables)
              .map((v) => (['rank', 'wager', 'link', 'random'].includes(v) ? `{${v}:…}` : `{${v}}`))
              .join(' ')}
          </Form.Text>
        </Form.Group>
      </div>
      <div id="cmd-preview" className="mt-2" aria-live="polite">
        {shown.problems.length > 0 ? (
          <p className="text-danger mb-0">{shown.problems.join('. ')}.</p>
        ) : form.response.trim() !== '' ? (
          <p className="mb-0">
            <strong>Preview:</strong> <span data-testid="command-preview">@viewer {shown.text}</span>
          </p>
        ) : null}
      </div>
      {error ? (
        <p className="text-danger mt-2 mb-0" role="alert">
          {error}
        </p>
      ) : null}
      <div className="mt-3 d-flex gap-2">
        <Button type="submit" disabled={busy}>
          {editing ? 'Save command' : 'Add command'}
        </Button>
        {editing ? (
          <Button variant="outline-secondary" onClick={onDone}>
            Cancel
          </Button>
        ) : null}
      </div>
    </Form>
  );
}

function BuiltinRow({ builtin }: { builtin: BuiltinCommand }) {
  const [aliases, setAliases] = useState(builtin.aliases.join(' '));
  const save = useEndpointMutation(commandEndpoints.builtinAliases, {
    invalidates: [commandEndpoints.overview],
    onSuccess: () => toast.success(`Aliases of !${builtin.name} saved.`),
  });
  return (
    <tr>
      <th scope="row">!{builtin.name}</th>
      <td>{builtin.description}</td>
      <td>
        <Form
          className="d-flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            // A refusal (a word already taken) is shown as the API's error toast.
            save.mutate({ params: { name: builtin.name }, body: { aliases: words(aliases) } });
          }}
        >
          <Form.Control
            size="sm"
            aria-label={`Aliases of !${builtin.name}`}
            value={aliases}
            onChange={(e) => setAliases(e.target.value)}
          />
          <Button size="sm" type="submit" variant="outline-secondary" disabled={save.isPending}>
            Save
          </Button>
        </Form>
      </td>
    </tr>
  );
}

const emptyTimer = { name: '', message: '', intervalMinutes: '10', minLines: '5', liveOnly: true, enabled: true };

function TimerEditor({ sites }: { sites: readonly string[] }) {
  const [form, setForm] = useState(emptyTimer);
  const [error, setError] = useState<string | null>(null);
  const create = useEndpointMutation(commandEndpoints.createTimer, {
    invalidates: [commandEndpoints.overview],
    onSuccess: () => (toast.success('Timer added.'), setForm(emptyTimer), setError(null)),
  });
  const shown = preview(form.message, sites);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      await create.mutateAsync({
        body: {
          name: form.name,
          message: form.message,
          intervalMinutes: Number(form.intervalMinutes),
          minLines: Number(form.minLines),
          liveOnly: form.liveOnly,
          enabled: form.enabled,
        },
      });
    } catch (err) {
      setError(err instanceof ApiError ? err.serverMessage : 'The timer could not be saved.');
    }
  };
  return (
    <Form className="kb-card mb-3" onSubmit={(e) => void submit(e)} aria-label="New timer" noValidate>
      <h3 className="h6">New timer</h3>
      <div className="row g-2">
        <Form.Group className="col-sm-6 col-lg-3" controlId="timer-name">
          <Form.Label>Name</Form.Label>
          <Form.Control value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Form.Group>
        <Form.Group className="col-sm-6 col-lg-3" controlId="timer-interval">
          <Form.Label>Every (minutes)</Form.Label>
          <Form.Control
            type="number"
            min={0}
            max={1440}
            value={form.intervalMinutes}
            onChange={(e) => setForm({ ...form, intervalMinutes: e.target.value })}
          />
        </Form.Group>
        <Form.Group className="col-sm-6 col-lg-3" controlId="timer-lines">
          <Form.Label>And at least (chat lines)</Form.Label>
          <Form.Control
            type="number"
            min={0}
            value={form.minLines}
            onChange={(e) => setForm({ ...form, minLines: e.target.value })}
          />
        </Form.Group>
        <div className="col-sm-6 col-lg-3 d-flex flex-column justify-content-end">
          <Form.Check
            id="timer-live-only"
            type="switch"
            label="Only while live"
            checked={form.liveOnly}
            onChange={(e) => setForm({ ...form, liveOnly: e.target.checked })}
          />
        </div>
        <Form.Group className="col-12" controlId="timer-message">
          <Form.Label>Message</Form.Label>
          <Form.Control
            as="textarea"
            rows={2}
            value={form.message}
            onChange={(e) => setForm({ ...form, message: e.target.value })}
          />
        </Form.Group>
      </div>
      {shown.problems.length > 0 ? <p className="text-danger mt-2 mb-0">{shown.problems.join('. ')}.</p> : null}
      {error ? (
        <p className="text-danger mt-2 mb-0" role="alert">
          {error}
        </p>
      ) : null}
      <Button type="submit" className="mt-3" disabled={create.isPending}>
        Add timer
      </Button>
    </Form>
  );
}

function TimerRow({ timer }: { timer: ChatTimer }) {
  const invalidates = [commandEndpoints.overview];
  const update = useEndpointMutation(commandEndpoints.updateTimer, { invalidates });
  const remove = useEndpointMutation(commandEndpoints.removeTimer, { invalidates });
  const toggle = () =>
    update.mutate({
      params: { id: timer.id },
      body: {
        name: timer.name,
        message: timer.message,
        intervalMinutes: timer.intervalMinutes,
        minLines: timer.minLines,
        liveOnly: timer.liveOnly,
        enabled: !timer.enabled,
      },
    });
  return (
    <tr>
      <th scope="row">{timer.name}</th>
      <td>{timer.message}</td>
      <td>
        {timer.intervalMinutes > 0 ? `every ${timer.intervalMinutes} min, ` : ''}after {timer.minLines} lines
        {timer.liveOnly ? ', live only' : ''}
      </td>
      <td>{timer.posts}</td>
      <td className="text-nowrap">
        <Button size="sm" variant="outline-secondary" onClick={toggle} disabled={update.isPending}>
          {timer.enabled ? 'Disable' : 'Enable'}
        </Button>{' '}
        <Button
          size="sm"
          variant="outline-danger"
          onClick={() => remove.mutate({ params: { id: timer.id } })}
          disabled={remove.isPending}
        >
          Delete
        </Button>
      </td>
    </tr>
  );
}

export default function AdminCommandsPage() {
  const overview = useEndpointQuery(commandEndpoints.overview);
  const [editing, setEditing] = useState<CustomCommand | null>(null);
  const [formKey, setFormKey] = useState(0);
  const remove = useEndpointMutation(commandEndpoints.remove, { invalidates: [commandEndpoints.overview] });
  const data = overview.data;
  const sites = data?.sites ?? [];
  return (
    <main className="container py-4">
      <h1 className="h3">Commands</h1>
      <p className="text-secondary">
        Chat commands the bot answers in Kick chat, and timers it posts. Answers and timer messages go through the paced
        chat queue.
      </p>
      <CommandEditor
        key={editing ? `edit-${editing.id}` : `new-${formKey}`}
        editing={editing}
        sites={sites}
        onDone={() => (setEditing(null), setFormKey((k) => k + 1))}
      />
      {overview.isError ? <p role="alert">The commands could not be loaded.</p> : null}
      {data ? (
        <>
          <h2 className="h5 mt-4">Custom commands</h2>
          {data.commands.length === 0 ? (
            <p>No custom commands yet.</p>
          ) : (
            <Table responsive size="sm" className="align-middle">
              <thead>
                <tr>
                  <th scope="col">Command</th>
                  <th scope="col">Response</th>
                  <th scope="col">Rules</th>
                  <th scope="col">Uses</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.commands.map((c) => (
                  <tr key={c.id}>
                    <th scope="row">
                      !{c.name}
                      {c.aliases.length > 0 ? (
                        <div className="small text-secondary">{c.aliases.map((a) => `!${a}`).join(' ')}</div>
                      ) : null}
                    </th>
                    <td>{c.response}</td>
                    <td className="small">
                      {commandPermissionText[c.permission]}
                      {c.userCooldownSeconds > 0 ? ` · ${c.userCooldownSeconds}s per user` : ''}
                      {c.globalCooldownSeconds > 0 ? ` · ${c.globalCooldownSeconds}s global` : ''}
                      {c.liveOnly ? ' · live only' : ''}
                      {Number(c.cost) > 0 ? ` · costs ${formatAmount(c.cost)}` : ''}
                      {c.enabled ? '' : ' · disabled'}
                    </td>
                    <td>{c.uses}</td>
                    <td className="text-nowrap">
                      <Button size="sm" variant="outline-secondary" onClick={() => setEditing(c)}>
                        Edit<span className="visually-hidden"> !{c.name}</span>
                      </Button>{' '}
                      <Button
                        size="sm"
                        variant="outline-danger"
                        disabled={remove.isPending}
                        onClick={() => remove.mutate({ params: { id: c.id } })}
                      >
                        Delete<span className="visually-hidden"> !{c.name}</span>
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          <h2 className="h5 mt-4">Built-in commands</h2>
          <p className="small text-secondary">An alias renames a built-in: typing it in chat runs the built-in.</p>
          <Table responsive size="sm" className="align-middle">
            <thead>
              <tr>
                <th scope="col">Command</th>
                <th scope="col">What it does</th>
                <th scope="col">Aliases</th>
              </tr>
            </thead>
            <tbody>
              {data.builtins.map((b) => (
                <BuiltinRow key={b.name} builtin={b} />
              ))}
            </tbody>
          </Table>
          <h2 className="h5 mt-4">Timers</h2>
          <p className="small text-secondary">
            A timer posts after its minutes have passed and at least its chat lines were written since its last post;
            due timers take turns.
          </p>
          <TimerEditor sites={sites} />
          {data.timers.length > 0 ? (
            <Table responsive size="sm" className="align-middle">
              <thead>
                <tr>
                  <th scope="col">Timer</th>
                  <th scope="col">Message</th>
                  <th scope="col">When</th>
                  <th scope="col">Posts</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.timers.map((t) => (
                  <TimerRow key={t.id} timer={t} />
                ))}
              </tbody>
            </Table>
          ) : null}
        </>
      ) : null}
    </main>
  );
}
