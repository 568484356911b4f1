/**
 * Admin → Leaderboards: per partner site the prizes by rank (with optional bonus), the period
 * schedule, whether the board is shown, the points rate, referral codes and link, excluded
 * names; the poller's health with "Refresh now"; and how the last closed period paid out.
 */
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useFieldArray, useWatch, type FieldError as HookFieldError } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { FaArrowsRotate, FaPlus, FaTrashCan } from 'react-icons/fa6';
import {
  MAX_PRIZE_RANKS,
  rewardUnits,
  siteSettingsForm,
  siteSettingsLimits,
  type AdminSite,
  type SiteSettingsFormValues,
  type SiteSettingsInput,
} from '@kickback/common/http/leaderboards';
import { formatAmount, formatWhole } from '../../lib/format';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { CurrencyIcon } from '../../components/ui/currency-icon';
import { useAdminSites, useRefreshSite, useReloadAdminSites, useSaveSiteSettings } from './admin-api';
import { AdminGoalSection } from './admin-goal-section';
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

/** ISO → the value of a datetime-local input, both in UTC (the form schema turns it back). */
function toLocalInput(iso: string): string {
  return iso.slice(0, 16);
}

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

function dateRange(start: string, end: string): string {
  const f = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  return `${f.format(new Date(start))} – ${f.format(new Date(end))}`;
}

/** The saved settings as the form's inputs hold them (one code per box, one excluded name per line). */
function valuesOf(s: SiteSettingsInput, codeCount: number): SiteSettingsFormValues {
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

/** A server problem with one excluded name (`excludedNames.3`) shows on the names box. */
function fieldOf(path: string): string | null {
  if (path.startsWith('excludedNames')) return 'excludedNames';
  return /^(shown|periodStart|periodDays|pointsPerUnit|rewardUnit|referralUrl|codes(\.\d+)?|rewards(\.\d+\.(reward|rewardBonus))?)$/.test(
    path,
  )
    ? path
    : null;
}

/** The message of a field whose value is a list (the first item's problem, or the list's own). */
function firstMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const own = (error as HookFieldError).message;
  if (typeof own === 'string') return own;
  for (const item of Object.values(error as Record<string, unknown>)) {
    const message = firstMessage(item);
    if (message) return message;
  }
  return undefined;
}

/** The props marking an input invalid and naming its message. */
function invalid(id: string, message: string | undefined) {
  return { isInvalid: Boolean(message), 'aria-invalid': Boolean(message), 'aria-describedby': `${id}-error` };
}

function SiteCard({ site }: { site: AdminSite }) {
  const id = `lb-${site.id}`;
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(siteSettingsForm, { defaultValues: valuesOf(site.settings, site.codeCount) });
  const prizes = useFieldArray({ control, name: 'rewards' });
  const rewardUnit = useWatch({ control, name: 'rewardUnit' });
  const excludedNames = useWatch({ control, name: 'excludedNames' }) ?? '';
  const nameCount = excludedNames.split('\n').filter((n) => n.trim() !== '').length;
  const save = useSaveSiteSettings();
  const refreshSite = useRefreshSite();
  const reload = useReloadAdminSites();
  const errorShowing =
    site.status.lastErrorAt && (!site.status.lastSuccessAt || site.status.lastErrorAt > site.status.lastSuccessAt);
  const provider = providerLabels[site.provider];

  const submit = handleSubmit(async (body) => {
    try {
      const r = await save.mutateAsync({ params: { site: site.id }, body });
      toast.success(r.message);
    } catch (err) {
      setServerErrors(err, setError, fieldOf); // the toast said the first
    }
  });

  const refresh = async () => {
    try {
      toast.success((await refreshSite.mutateAsync({ params: { site: site.id } })).message);
    } catch {
      // The API wrapper said why; the status above shows how the last fetch went.
      await reload();
    }
  };

  const message = {
    periodStart: errors.periodStart?.message,
    periodDays: errors.periodDays?.message,
    pointsPerUnit: errors.pointsPerUnit?.message,
    referralUrl: errors.referralUrl?.message,
    excludedNames: firstMessage(errors.excludedNames),
    rewards: errors.rewards?.message ?? errors.rewards?.root?.message,
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
          onClick={() => void refresh()}
          disabled={refreshSite.isPending || site.provider === 'none'}
        >
          {refreshSite.isPending ? (
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

      <Form onSubmit={(e) => void submit(e)} noValidate>
        <div className="row g-3">
          <div className="col-12">
            <Form.Check
              type="switch"
              id={`${id}-shown`}
              label="Show this board on the Leaderboard page"
              {...register('shown')}
            />
            <Form.Text>
              Hidden boards keep polling, paying wager points and closing periods; clear the prizes to award none.
            </Form.Text>
          </div>
          {Array.from({ length: site.codeCount }, (_, i) => {
            const codeError = errors.codes?.[i]?.message ?? (i === 0 ? errors.codes?.message : undefined);
            return (
              <div className="col-sm-6 col-lg-3" key={i}>
                <Form.Label htmlFor={`${id}-code-${i}`}>
                  {site.codeCount > 1 ? `Referral code ${i + 1}` : 'Referral code'}
                </Form.Label>
                <Form.Control
                  id={`${id}-code-${i}`}
                  maxLength={siteSettingsLimits.code}
                  autoComplete="off"
                  {...invalid(`${id}-code-${i}`, codeError)}
                  {...register(`codes.${i}`)}
                />
                <FieldError id={`${id}-code-${i}-error`} message={codeError} />
              </div>
            );
          })}
          <div className="col-lg-6">
            <Form.Label htmlFor={`${id}-url`}>Referral link</Form.Label>
            <Form.Control
              id={`${id}-url`}
              type="url"
              placeholder="https://…"
              maxLength={siteSettingsLimits.referralUrl}
              {...invalid(`${id}-url`, message.referralUrl)}
              {...register('referralUrl')}
            />
            <FieldError id={`${id}-url-error`} message={message.referralUrl} />
          </div>
          <div className="col-sm-6 col-lg-3">
            <Form.Label htmlFor={`${id}-start`}>Period start (UTC)</Form.Label>
            <Form.Control
              id={`${id}-start`}
              type="datetime-local"
              {...invalid(`${id}-start`, message.periodStart)}
              {...register('periodStart')}
            />
            <FieldError id={`${id}-start-error`} message={message.periodStart} />
            {sinceOnly.has(site.id) && (
              <Form.Text>
                This API counts from 00:00 UTC of the start day: start periods at midnight. The final standings are the
                last fetched before the end.
              </Form.Text>
            )}
          </div>
          <div className="col-sm-6 col-lg-2">
            <Form.Label htmlFor={`${id}-days`}>Length</Form.Label>
            <InputGroup hasValidation>
              <Form.Control
                id={`${id}-days`}
                type="number"
                min={siteSettingsLimits.periodDays.min}
                max={siteSettingsLimits.periodDays.max}
                step={1}
                {...invalid(`${id}-days`, message.periodDays)}
                {...register('periodDays')}
              />
              <InputGroup.Text>days</InputGroup.Text>
              <FieldError id={`${id}-days-error`} message={message.periodDays} />
            </InputGroup>
          </div>
          <div className="col-sm-6 col-lg-3">
            <Form.Label htmlFor={`${id}-rate`}>Points per 1 unit wagered</Form.Label>
            <Form.Control
              id={`${id}-rate`}
              type="number"
              min={0}
              max={siteSettingsLimits.pointsPerUnit}
              step={0.01}
              {...invalid(`${id}-rate`, message.pointsPerUnit)}
              {...register('pointsPerUnit')}
            />
            <FieldError id={`${id}-rate-error`} message={message.pointsPerUnit} />
          </div>
          <div className="col-sm-6 col-lg-2">
            <Form.Label htmlFor={`${id}-unit`}>Prize unit</Form.Label>
            <Form.Select id={`${id}-unit`} {...register('rewardUnit')}>
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
              {prizes.fields.length === 0 && (
                <p className="text-body-secondary small mb-2">No prizes: the board ranks for glory only.</p>
              )}
              {prizes.fields.map((field, i) => {
                const rewardError = errors.rewards?.[i]?.reward?.message;
                const bonusError = errors.rewards?.[i]?.rewardBonus?.message;
                return (
                  <div className="mb-2" key={field.id}>
                    <div className="d-flex align-items-center gap-2">
                      <span className="kb-admin-rank">#{i + 1}</span>
                      <Form.Control
                        aria-label={`Reward for rank ${i + 1}`}
                        type="number"
                        min={0}
                        max={siteSettingsLimits.money}
                        step={0.01}
                        {...invalid(`${id}-reward-${i}`, rewardError)}
                        aria-describedby={`${id}-reward-${i}-error`}
                        {...register(`rewards.${i}.reward`)}
                      />
                      <span aria-hidden>+</span>
                      <Form.Control
                        aria-label={`Bonus for rank ${i + 1}`}
                        placeholder="bonus"
                        type="number"
                        min={0}
                        max={siteSettingsLimits.money}
                        step={0.01}
                        {...invalid(`${id}-reward-${i}`, bonusError)}
                        {...register(`rewards.${i}.rewardBonus`)}
                      />
                      <CurrencyIcon unit={rewardUnit} size={20} />
                      <Button
                        variant="outline-secondary"
                        size="sm"
                        aria-label={`Remove rank ${i + 1}`}
                        onClick={() => prizes.remove(i)}
                      >
                        <FaTrashCan aria-hidden />
                      </Button>
                    </div>
                    {(rewardError ?? bonusError) && (
                      <div className="invalid-feedback d-block" id={`${id}-reward-${i}-error`} role="alert">
                        {rewardError ?? bonusError}
                      </div>
                    )}
                  </div>
                );
              })}
              {message.rewards && (
                <div className="invalid-feedback d-block" role="alert">
                  {message.rewards}
                </div>
              )}
              <Button
                variant="outline-secondary"
                size="sm"
                onClick={() => prizes.append({ reward: '', rewardBonus: '' })}
                disabled={prizes.fields.length >= MAX_PRIZE_RANKS}
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
              {...invalid(`${id}-excluded`, message.excludedNames)}
              aria-describedby={`${id}-excluded-error ${id}-excluded-count`}
              {...register('excludedNames')}
            />
            <FieldError id={`${id}-excluded-error`} message={message.excludedNames} />
            <div className="d-flex align-items-baseline gap-2">
              <Form.Text>Site users marked excluded never rank either.</Form.Text>
              <small
                id={`${id}-excluded-count`}
                className={`ms-auto text-nowrap ${nameCount > siteSettingsLimits.excludedNames ? 'text-danger' : 'text-body-secondary'}`}
              >
                {nameCount} / {siteSettingsLimits.excludedNames} names
              </small>
            </div>
          </div>
          <div className="col-12">
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting && <Spinner size="sm" animation="border" className="me-2" />}
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

/**
 * One board at a time: a tab per partner site; the chosen one is in the address (`?board=roobet`),
 * so a reload or a shared link opens it. The other boards stay mounted (hidden), keeping unsaved edits.
 */
export default function AdminLeaderboardsPage() {
  const sites = useAdminSites();
  const [params, setParams] = useSearchParams();
  const list = sites.data?.sites ?? [];
  const chosen = list.find((s) => s.slug === params.get('board')) ?? list[0];
  const choose = (slug: string) => setParams({ board: slug }, { replace: true });
  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-2">Leaderboards</h1>
      <p className="text-body-secondary mb-4">
        Prizes, schedule and visibility of the weekly wager boards. At a period&rsquo;s end the standings are frozen as
        the previous board and the prizes of linked, active winners go to the fulfilment queue.
      </p>
      {sites.isPending ? (
        <div className="kb-page-loading" aria-busy="true" />
      ) : (
        <>
          <div className="kb-site-tabs">
            <div className="nav nav-pills flex-nowrap" role="tablist" aria-label="Boards">
              {list.map((s) => (
                <button
                  key={s.id}
                  type="button"
                  role="tab"
                  id={`lb-tab-${s.id}`}
                  aria-controls={`lb-panel-${s.id}`}
                  aria-selected={s === chosen}
                  tabIndex={s === chosen ? 0 : -1}
                  className={`nav-link${s === chosen ? ' active' : ''}`}
                  onClick={() => choose(s.slug)}
                  onKeyDown={(e) => {
                    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
                    if (!step || !chosen) return;
                    const next = list[(list.indexOf(chosen) + step + list.length) % list.length];
                    if (!next) return;
                    choose(next.slug);
                    document.getElementById(`lb-tab-${next.id}`)?.focus();
                  }}
                >
                  {s.name}
                </button>
              ))}
            </div>
          </div>
          {list.map((s) => (
            <div
              key={s.id}
              role="tabpanel"
              id={`lb-panel-${s.id}`}
              aria-labelledby={`lb-tab-${s.id}`}
              hidden={s !== chosen}
            >
              {/* A card starts over only when its saved settings changed, so edits elsewhere survive a save. */}
              <SiteCard key={`${s.id}:${JSON.stringify(s.settings)}`} site={s} />
              {s === chosen && <AdminGoalSection site={s.id} siteName={s.name} />}
            </div>
          ))}
        </>
      )}
    </section>
  );
}
