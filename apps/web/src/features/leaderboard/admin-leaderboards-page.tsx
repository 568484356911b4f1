/**
 * Admin → Leaderboards: per partner site the prizes by rank (with optional bonus), the period
 * schedule, whether the board is shown, the points rate, referral codes and link, excluded
 * names; the poller's health with "Refresh now"; and how the last closed period paid out.
 */
import { useEffect, useState, type FormEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import { FaArrowsRotate, FaPlus, FaTrashCan } from 'react-icons/fa6';
import {
  leaderboardEndpoints,
  rewardUnits,
  type AdminSite,
  type SiteSettingsInput,
} from '@kickback/common/http/leaderboards';
import { api } from '../../lib/api';
import { formatAmount, formatWhole } from '../../lib/format';
import { CurrencyIcon } from '../../components/ui/currency-icon';
import './leaderboard.css';

const providerLabels: Record<AdminSite['provider'], { text: string; bg: string; ink?: 'dark' }> = {
  partner: { text: 'Partner API', bg: 'success' },
  simulator: { text: 'Simulator', bg: 'info', ink: 'dark' },
  none: { text: 'Not configured', bg: 'secondary' },
};

const linkLabels: Record<string, string> = {
  clashId: 'Clash id',
  rustMagicId: 'RustMagic id',
  roobetName: 'Roobet name',
  casesId: 'Cases id',
};

/** Clash.gg, its second account and Cases.gg only take a "since" date. */
const sinceOnly = new Set([1, 2, 7]);

/** ISO ↔ the value of a datetime-local input, both in UTC. */
function toLocalInput(iso: string): string {
  return iso.slice(0, 16);
}
function fromLocalInput(value: string): string {
  return value ? `${value}:00Z` : '';
}

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

function dateRange(start: string, end: string): string {
  const f = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  return `${f.format(new Date(start))} – ${f.format(new Date(end))}`;
}

interface Draft {
  shown: boolean;
  periodStart: string;
  periodDays: string;
  pointsPerUnit: string;
  rewardUnit: SiteSettingsInput['rewardUnit'];
  rewards: Array<{ reward: string; rewardBonus: string }>;
  codes: string[];
  referralUrl: string;
  excludedNames: string;
}

function draftOf(s: SiteSettingsInput, codeCount: number): Draft {
  return {
    shown: s.shown,
    periodStart: toLocalInput(s.periodStart),
    periodDays: String(s.periodDays),
    pointsPerUnit: String(s.pointsPerUnit),
    rewardUnit: s.rewardUnit,
    rewards: s.rewards.map((r) => ({
      reward: String(r.reward),
      rewardBonus: r.rewardBonus === null ? '' : String(r.rewardBonus),
    })),
    codes: Array.from({ length: codeCount }, (_, i) => s.codes[i] ?? ''),
    referralUrl: s.referralUrl ?? '',
    excludedNames: s.excludedNames.join('\n'),
  };
}

/** The draft as the API takes it; the server validates (and names what is wrong). */
function inputOf(d: Draft): SiteSettingsInput {
  const num = (v: string) => (v.trim() === '' ? Number.NaN : Number(v));
  return {
    shown: d.shown,
    periodStart: fromLocalInput(d.periodStart),
    periodDays: num(d.periodDays),
    pointsPerUnit: num(d.pointsPerUnit),
    rewardUnit: d.rewardUnit,
    rewards: d.rewards.map((r) => ({
      reward: num(r.reward),
      rewardBonus: r.rewardBonus.trim() === '' ? null : num(r.rewardBonus),
    })),
    codes: d.codes.map((c) => c.trim()).filter(Boolean),
    referralUrl: d.referralUrl.trim() || null,
    excludedNames: d.excludedNames
      .split('\n')
      .map((n) => n.trim())
      .filter(Boolean),
  };
}

function SiteCard({ site, onSaved }: { site: AdminSite; onSaved: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(site.settings, site.codeCount));
  const [saving, setSaving] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const id = `lb-${site.id}`;
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const errorShowing =
    site.status.lastErrorAt && (!site.status.lastSuccessAt || site.status.lastErrorAt > site.status.lastSuccessAt);
  const provider = providerLabels[site.provider];

  const save = (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    api(leaderboardEndpoints.updateSettings, { params: { site: site.id }, body: inputOf(draft) })
      .then((r) => {
        toast.success(r.message);
        onSaved();
      })
      .catch(() => undefined)
      .finally(() => setSaving(false));
  };

  const refresh = () => {
    setRefreshing(true);
    api(leaderboardEndpoints.refresh, { params: { site: site.id } })
      .then((r) => {
        toast.success(r.message);
        onSaved();
      })
      .catch(() => onSaved())
      .finally(() => setRefreshing(false));
  };

  return (
    <article className="kb-card mb-4" aria-labelledby={`${id}-title`}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h2 className="h4 mb-0 me-2" id={`${id}-title`}>
          {site.id}. {site.name}
        </h2>
        <Badge bg={provider.bg} {...(provider.ink ? { text: provider.ink } : {})}>
          {provider.text}
        </Badge>
        <Badge bg={site.settings.shown ? 'success' : 'secondary'}>{site.settings.shown ? 'Shown' : 'Hidden'}</Badge>
        <Button
          size="sm"
          variant="outline-secondary"
          className="ms-auto"
          onClick={refresh}
          disabled={refreshing || site.provider === 'none'}
        >
          {refreshing ? (
            <Spinner size="sm" animation="border" className="me-2" />
          ) : (
            <FaArrowsRotate aria-hidden className="me-2" />
          )}
          Refresh now
        </Button>
      </div>

      <dl className="kb-admin-status">
        <div>
          <dt>Running period</dt>
          <dd>{site.current ? dateRange(site.current.startDate, site.current.endDate) : '—'}</dd>
        </div>
        <div>
          <dt>Players</dt>
          <dd>{site.status.players}</dd>
        </div>
        <div>
          <dt>Last fetched</dt>
          <dd>{when(site.status.lastSuccessAt)}</dd>
        </div>
        <div>
          <dt>Next poll</dt>
          <dd>{when(site.status.nextPollAt)}</dd>
        </div>
        <div>
          <dt>Users link by</dt>
          <dd>{site.linkField ? linkLabels[site.linkField] : 'nothing (no partner id on profiles)'}</dd>
        </div>
      </dl>
      {errorShowing && (
        <p className="text-danger-emphasis small" role="status">
          Last fetch failed {when(site.status.lastErrorAt)}: {site.status.lastError}. The board keeps the last good
          standings.
        </p>
      )}

      <Form onSubmit={save} noValidate>
        <div className="row g-3">
          <div className="col-12">
            <Form.Check
              type="switch"
              id={`${id}-shown`}
              label="Show this board on the Leaderboard page"
              checked={draft.shown}
              onChange={(e) => set('shown', e.target.checked)}
            />
            <Form.Text>
              Hidden boards keep polling, paying wager points and closing periods; clear the prizes to award none.
            </Form.Text>
          </div>
          {draft.codes.map((code, i) => (
            <div className="col-sm-6 col-lg-3" key={i}>
              <Form.Label htmlFor={`${id}-code-${i}`}>
                {draft.codes.length > 1 ? `Referral code ${i + 1}` : 'Referral code'}
              </Form.Label>
              <Form.Control
                id={`${id}-code-${i}`}
                value={code}
                maxLength={32}
                onChange={(e) =>
                  set(
                    'codes',
                    draft.codes.map((c, j) => (j === i ? e.target.value : c)),
                  )
                }
              />
            </div>
          ))}
          <div className="col-lg-6">
            <Form.Label htmlFor={`${id}-url`}>Referral link</Form.Label>
            <Form.Control
              id={`${id}-url`}
              type="url"
              placeholder="https://…"
              value={draft.referralUrl}
              onChange={(e) => set('referralUrl', e.target.value)}
            />
          </div>
          <div className="col-sm-6 col-lg-3">
            <Form.Label htmlFor={`${id}-start`}>Period start (UTC)</Form.Label>
            <Form.Control
              id={`${id}-start`}
              type="datetime-local"
              value={draft.periodStart}
              onChange={(e) => set('periodStart', e.target.value)}
            />
            {sinceOnly.has(site.id) && (
              <Form.Text>
                This API counts from 00:00 UTC of the start day: start periods at midnight. The final standings are the
                last fetched before the end.
              </Form.Text>
            )}
          </div>
          <div className="col-sm-6 col-lg-2">
            <Form.Label htmlFor={`${id}-days`}>Length</Form.Label>
            <InputGroup>
              <Form.Control
                id={`${id}-days`}
                type="number"
                min={1}
                max={31}
                step={1}
                value={draft.periodDays}
                onChange={(e) => set('periodDays', e.target.value)}
              />
              <InputGroup.Text>days</InputGroup.Text>
            </InputGroup>
          </div>
          <div className="col-sm-6 col-lg-3">
            <Form.Label htmlFor={`${id}-rate`}>Points per 1 unit wagered</Form.Label>
            <Form.Control
              id={`${id}-rate`}
              type="number"
              min={0}
              step={0.01}
              value={draft.pointsPerUnit}
              onChange={(e) => set('pointsPerUnit', e.target.value)}
            />
          </div>
          <div className="col-sm-6 col-lg-2">
            <Form.Label htmlFor={`${id}-unit`}>Prize unit</Form.Label>
            <Form.Select
              id={`${id}-unit`}
              value={draft.rewardUnit}
              onChange={(e) => set('rewardUnit', e.target.value as Draft['rewardUnit'])}
            >
              {rewardUnits.map((u) => (
                <option key={u} value={u}>
                  {u}
                </option>
              ))}
            </Form.Select>
          </div>

          <div className="col-lg-7">
            <fieldset>
              <legend className="form-label fs-6 mb-2">Prizes by rank</legend>
              {draft.rewards.length === 0 && (
                <p className="text-body-secondary small mb-2">No prizes: the board ranks for glory only.</p>
              )}
              {draft.rewards.map((r, i) => (
                <div className="d-flex align-items-center gap-2 mb-2" key={i}>
                  <span className="kb-admin-rank">#{i + 1}</span>
                  <Form.Control
                    aria-label={`Reward for rank ${i + 1}`}
                    type="number"
                    min={0}
                    step={0.01}
                    value={r.reward}
                    onChange={(e) =>
                      set(
                        'rewards',
                        draft.rewards.map((x, j) => (j === i ? { ...x, reward: e.target.value } : x)),
                      )
                    }
                  />
                  <span aria-hidden>+</span>
                  <Form.Control
                    aria-label={`Bonus for rank ${i + 1}`}
                    placeholder="bonus"
                    type="number"
                    min={0}
                    step={0.01}
                    value={r.rewardBonus}
                    onChange={(e) =>
                      set(
                        'rewards',
                        draft.rewards.map((x, j) => (j === i ? { ...x, rewardBonus: e.target.value } : x)),
                      )
                    }
                  />
                  <CurrencyIcon unit={draft.rewardUnit} size={20} />
                  <Button
                    variant="outline-secondary"
                    size="sm"
                    aria-label={`Remove rank ${i + 1}`}
                    onClick={() =>
                      set(
                        'rewards',
                        draft.rewards.filter((_, j) => j !== i),
                      )
                    }
                  >
                    <FaTrashCan aria-hidden />
                  </Button>
                </div>
              ))}
              <Button
                variant="outline-secondary"
                size="sm"
                onClick={() => set('rewards', [...draft.rewards, { reward: '', rewardBonus: '' }])}
                disabled={draft.rewards.length >= 100}
              >
                <FaPlus aria-hidden className="me-1" /> Add rank
              </Button>
            </fieldset>
          </div>
          <div className="col-lg-5">
            <Form.Label htmlFor={`${id}-excluded`}>Excluded partner names</Form.Label>
            <Form.Control
              id={`${id}-excluded`}
              as="textarea"
              rows={4}
              placeholder="One name per line: your own accounts, bots"
              value={draft.excludedNames}
              onChange={(e) => set('excludedNames', e.target.value)}
            />
            <Form.Text>Site users marked excluded never rank either.</Form.Text>
          </div>
          <div className="col-12">
            <Button type="submit" disabled={saving}>
              {saving && <Spinner size="sm" animation="border" className="me-2" />}
              Save {site.name}
            </Button>
          </div>
        </div>
      </Form>

      {site.lastClosed && (
        <section className="mt-4" aria-label={`${site.name} last closed period`}>
          <h3 className="h6 text-body-secondary">
            Last closed period · {dateRange(site.lastClosed.startDate, site.lastClosed.endDate)}
          </h3>
          {/* Focusable so keyboard users can scroll it on a narrow screen. */}
          <div className="table-responsive" tabIndex={0} role="region" aria-label={`${site.name} results`}>
            <Table variant="dark" size="sm" className="align-middle mb-0">
              <thead>
                <tr>
                  <th>#</th>
                  <th>Player</th>
                  <th className="text-end">Wagered</th>
                  <th className="text-end ps-3">Prize</th>
                  <th className="ps-3">Site user</th>
                  <th>Fulfilment</th>
                </tr>
              </thead>
              <tbody>
                {site.lastClosed.results.map((r) => (
                  <tr key={r.rank}>
                    <td>{r.rank}</td>
                    <td>{r.userName}</td>
                    <td className="text-end text-nowrap">${formatWhole(r.wageredAmount)}</td>
                    <td className="text-end text-nowrap ps-3">
                      {r.reward === null
                        ? '—'
                        : `${formatAmount(r.reward)}${r.rewardBonus ? ` + ${formatAmount(r.rewardBonus)}` : ''}`}
                    </td>
                    <td className="ps-3">{r.linkedUser ?? <span className="text-body-secondary">not linked</span>}</td>
                    <td>
                      {r.fulfilmentId !== null ? (
                        <Badge bg="success">queued #{r.fulfilmentId}</Badge>
                      ) : !r.isActive ? (
                        <span className="text-body-secondary">off the code</span>
                      ) : r.reward !== null ? (
                        <span className="text-warning">deliver by hand</span>
                      ) : (
                        <span className="text-body-secondary">—</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </div>
        </section>
      )}
    </article>
  );
}

export default function AdminLeaderboardsPage() {
  const [sites, setSites] = useState<AdminSite[] | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    api(leaderboardEndpoints.adminSites, { signal: controller.signal })
      .then((r) => setSites(r.sites))
      .catch(() => setSites((s) => s ?? []));
    return () => controller.abort();
  }, [version]);

  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-2">Leaderboards</h1>
      <p className="text-body-secondary mb-4">
        Prizes, schedule and visibility of the weekly wager boards. At a period&rsquo;s end the standings are frozen as
        the previous board and the prizes of linked, active winners go to the fulfilment queue.
      </p>
      {sites === null ? (
        <div className="kb-page-loading" aria-busy="true" />
      ) : (
        // A card starts over only when its saved settings changed, so edits elsewhere survive a save.
        sites.map((s) => (
          <SiteCard key={`${s.id}:${JSON.stringify(s.settings)}`} site={s} onSaved={() => setVersion((v) => v + 1)} />
        ))
      )}
    </section>
  );
}
