/**
 * Admin → Moderation (docs/features/chat-moderation.md): the chat filters — each off by default,
 * with its own action (delete the message, time out, ban) and an optional warning for a first
 * offence — who is immune, and the moderation log of every action and warning with Kick's answer.
 */
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Pagination from 'react-bootstrap/Pagination';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import {
  MODERATION_ACTIONS,
  MODERATION_RULE_LABELS,
  MODERATION_RULES,
  moderationEndpoints,
  type ModerationLogEntry,
  type ModerationRule,
  type ModerationSettings,
  type ModerationSettingsView,
} from '@kickback/common/http/chat-moderation';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';
import { usePaged } from '../../lib/use-paged';

const ACTION_LABELS = { delete: 'Delete the message', timeout: 'Time out', ban: 'Ban' } as const;

/** The numbers each filter takes, with their labels. */
const NUMBERS: { [R in ModerationRule]: Array<{ key: string; label: string }> } = {
  links: [{ key: 'permitSeconds', label: '!permit lasts (seconds)' }],
  caps: [
    { key: 'maxPercent', label: 'Most capital letters (%)' },
    { key: 'minLetters', label: 'Checked from (letters)' },
  ],
  repeatedChars: [{ key: 'maxRun', label: 'Most of one character in a row' }],
  repeatedMessages: [
    { key: 'maxRepeats', label: 'Same line allowed (times)' },
    { key: 'windowSeconds', label: 'Within (seconds)' },
  ],
  length: [{ key: 'maxLength', label: 'Longest message (characters)' }],
  emotes: [{ key: 'maxEmotes', label: 'Most emotes in a message' }],
  bannedWords: [],
  regex: [],
};
/** The lists some filters take, edited one item a line. */
const LISTS: Partial<Record<ModerationRule, { key: string; label: string; hint: string }>> = {
  links: { key: 'allowedDomains', label: 'Allowed domains', hint: 'One a line; its subdomains are allowed too.' },
  bannedWords: { key: 'words', label: 'Banned words and phrases', hint: 'One a line; whole words, any case.' },
  regex: {
    key: 'patterns',
    label: 'Regular expressions',
    hint: 'One a line, any case. Patterns that can backtrack badly (nested repeats, repeated alternatives, backreferences) are refused.',
  },
};

type Filter = ModerationSettings[ModerationRule] & Record<string, unknown>;

function FilterCard({
  rule,
  filter,
  onChange,
}: {
  rule: ModerationRule;
  filter: Filter;
  onChange: (next: Filter) => void;
}) {
  const id = `kb-mod-${rule}`;
  const set = (patch: Record<string, unknown>) => onChange({ ...filter, ...patch });
  const list = LISTS[rule];
  return (
    <section className="kb-card p-3 mb-3" aria-labelledby={`${id}-title`}>
      <div className="d-flex flex-wrap align-items-center gap-3">
        <h2 className="h6 m-0" id={`${id}-title`}>
          {MODERATION_RULE_LABELS[rule]}
        </h2>
        <Form.Check
          type="switch"
          id={`${id}-on`}
          label="Filter on"
          checked={filter.enabled}
          onChange={(e) => set({ enabled: e.target.checked })}
        />
      </div>
      <div className="row g-2 mt-1">
        <Form.Group className="col-sm-4" controlId={`${id}-action`}>
          <Form.Label>Action</Form.Label>
          <Form.Select value={filter.action} onChange={(e) => set({ action: e.target.value })}>
            {MODERATION_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {ACTION_LABELS[a]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {filter.action === 'timeout' && (
          <Form.Group className="col-sm-3" controlId={`${id}-minutes`}>
            <Form.Label>Timeout (minutes)</Form.Label>
            <Form.Control
              type="number"
              min={1}
              value={filter.timeoutMinutes}
              onChange={(e) => set({ timeoutMinutes: Number(e.target.value) })}
            />
          </Form.Group>
        )}
        {NUMBERS[rule].map((n) => (
          <Form.Group className="col-sm-3" controlId={`${id}-${n.key}`} key={n.key}>
            <Form.Label>{n.label}</Form.Label>
            <Form.Control
              type="number"
              min={1}
              value={Number(filter[n.key])}
              onChange={(e) => set({ [n.key]: Number(e.target.value) })}
            />
          </Form.Group>
        ))}
      </div>
      <Form.Check
        className="mt-2"
        type="switch"
        id={`${id}-warn`}
        label="Warn on a first offence instead (none in the last 24 hours)"
        checked={filter.warnFirst}
        onChange={(e) => set({ warnFirst: e.target.checked })}
      />
      {list && (
        <Form.Group className="mt-2" controlId={`${id}-${list.key}`}>
          <Form.Label>{list.label}</Form.Label>
          <Form.Control
            as="textarea"
            rows={3}
            value={(filter[list.key] as string[]).join('\n')}
            onChange={(e) => set({ [list.key]: e.target.value.split('\n') })}
          />
          <Form.Text>{list.hint}</Form.Text>
        </Form.Group>
      )}
    </section>
  );
}

/** Lists typed one item a line lose their blank lines before saving. */
function cleaned(draft: ModerationSettings): ModerationSettings {
  const next = structuredClone(draft);
  next.links.allowedDomains = next.links.allowedDomains.map((s) => s.trim()).filter(Boolean);
  next.bannedWords.words = next.bannedWords.words.map((s) => s.trim()).filter(Boolean);
  next.regex.patterns = next.regex.patterns.filter((s) => s.trim() !== '');
  next.immunity.badges = next.immunity.badges.map((s) => s.trim()).filter(Boolean);
  return next;
}

function SettingsForm({ view }: { view: ModerationSettingsView }) {
  const [draft, setDraft] = useState<ModerationSettings>(view.settings);
  const [badges, setBadges] = useState(view.settings.immunity.badges.join(', '));
  const save = useEndpointMutation(moderationEndpoints.update, { invalidates: [moderationEndpoints.get] });
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      const body = cleaned({ ...draft, immunity: { badges: badges.split(',') } });
      const data = await save.mutateAsync({ body });
      toast.success(data.message);
    } catch {
      // the API wrapper shows the refusal (a refused pattern is named in it)
    }
  };
  return (
    <Form noValidate onSubmit={(e) => void submit(e)}>
      {MODERATION_RULES.map((rule) => (
        <FilterCard
          key={rule}
          rule={rule}
          filter={draft[rule] as Filter}
          onChange={(next) => setDraft({ ...draft, [rule]: next })}
        />
      ))}
      <section className="kb-card p-3 mb-3" aria-labelledby="kb-mod-immunity-title">
        <h2 className="h6" id="kb-mod-immunity-title">
          Immune
        </h2>
        <p className="text-body-secondary small mb-2">
          Moderators, the broadcaster and VIPs are always immune. Other Kick badges that are immune too:
        </p>
        <Form.Group controlId="kb-mod-badges">
          <Form.Label>Immune badges</Form.Label>
          <Form.Control value={badges} onChange={(e) => setBadges(e.target.value)} />
          <Form.Text>Badge types separated by commas, e.g. og, founder, subscriber.</Form.Text>
        </Form.Group>
      </section>
      <Button type="submit" disabled={save.isPending}>
        Save filters
      </Button>
    </Form>
  );
}

const OUTCOME_LABELS = { pending: 'asking Kick', done: 'done', failed: 'failed' } as const;
function actionText(e: ModerationLogEntry): string {
  if (e.action === 'warn') return 'Warned';
  if (e.action === 'timeout') return `Timed out ${e.timeoutMinutes ?? ''} min`;
  return e.action === 'ban' ? 'Banned' : 'Deleted';
}

function ModerationLog() {
  const [page, setPage] = useState(1);
  const { data } = usePaged(moderationEndpoints.log, page);
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section aria-labelledby="kb-mod-log-title" className="mt-4">
      <h2 className="h5" id="kb-mod-log-title">
        Moderation log
      </h2>
      {data && data.items.length === 0 && <p className="text-body-secondary">Nothing moderated yet.</p>}
      {data && data.items.length > 0 && (
        <Table responsive size="sm" aria-label="Moderation log">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Rule</th>
              <th scope="col">Message</th>
              <th scope="col">Action</th>
              <th scope="col">Kick's answer</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((e) => (
              <tr key={e.id}>
                <td className="text-nowrap">{new Date(e.createdAt).toLocaleString()}</td>
                <td>{e.kickUsername}</td>
                <td>{MODERATION_RULE_LABELS[e.rule]}</td>
                <td className="text-break">{e.content}</td>
                <td>
                  {actionText(e)} <span className="text-body-secondary">({OUTCOME_LABELS[e.outcome]})</span>
                </td>
                <td className="text-break">
                  {e.kickStatus !== null && <code>{e.kickStatus}</code>} {e.kickAnswer}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
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

export default function AdminModerationPage() {
  const { data } = useEndpointQuery(moderationEndpoints.get);
  return (
    <div className="container py-4" style={{ maxWidth: 960 }}>
      <h1 className="h3">Moderation</h1>
      <p className="text-body-secondary">
        Filters for the streamer's Kick chat. Each is off until you turn it on and has its own action; the Kick bot acts
        for the channel. A moderator types <code>!permit name</code> in chat to let that viewer post one link.
      </p>
      {data && !data.botConnected && (
        <Alert variant="warning">
          The Kick bot is not connected: filters cannot act until it is. Connect it on{' '}
          <Link to="/admin/integrations">Integrations</Link>.
        </Alert>
      )}
      {data && data.missingScopes.length > 0 && (
        <Alert variant="warning">
          The Kick bot was connected without {data.missingScopes.join(' and ')}: reconnect it on{' '}
          <Link to="/admin/integrations">Integrations</Link> so the filters can act.
        </Alert>
      )}
      {data && <SettingsForm key={data.updatedAt ?? 'default'} view={data} />}
      <ModerationLog />
    </div>
  );
}
