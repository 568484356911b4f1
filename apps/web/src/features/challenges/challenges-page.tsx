/**
 * /Challenges (docs/product.md#challenges-page-public): heading CHALLENGES, the category filter (fixed to
 * the one configured category), Sort (1 Newest default … 4 Prize low to high), the collapsible
 * Rules, then ACTIVE and ENDED sections. CLAIM opens the claim modal.
 */
import { useMemo, useState } from 'react';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { FaFlagCheckered, FaFire } from 'react-icons/fa6';
import { challengeSorts, type Challenge, type ChallengeSort } from '@kickback/common/http/challenges';
import { useSite } from '../../shared/site-context';
import { usePublicChallenges } from './api';
import { ActiveChallengeCard, EndedChallengeCard } from './challenge-card';
import { splitChallenges } from './challenge-list';
import { ChallengeRules } from './challenge-rules';
import { ClaimModal } from './claim-modal';
import './challenges.css';

export default function ChallengesPage() {
  const site = useSite();
  const categories = [site.challengeCategory];
  const [category, setCategory] = useState(site.challengeCategory);
  const [sort, setSort] = useState<ChallengeSort>(1);
  const query = usePublicChallenges();
  const list = useMemo(() => query.data?.challenges ?? (query.isError ? [] : null), [query.data, query.isError]);
  const [claiming, setClaiming] = useState<Challenge | null>(null);

  const { active, ended } = useMemo(() => splitChallenges(list ?? [], category, sort), [list, category, sort]);

  return (
    <section className="container-xl py-4 kb-challenges">
      <header className="kb-challenges-head">
        <div>
          <p className="kb-eyebrow mb-1">Win real prizes on stream</p>
          <h1 className="kb-challenges-title">CHALLENGES</h1>
          <p className="text-body-secondary mb-0">
            Hit the target on {site.challengeCategory}, claim the prize. New challenges drop during {site.streamerName}
            &rsquo;s streams.
          </p>
        </div>
        <div className="kb-challenges-controls">
          <Form.Group controlId="challenge-category">
            <Form.Label className="small text-body-secondary mb-1">Category</Form.Label>
            <Form.Select value={category} onChange={(e) => setCategory(e.target.value)}>
              {categories.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Form.Group controlId="challenge-sort">
            <Form.Label className="small text-body-secondary mb-1">Sort</Form.Label>
            <Form.Select value={sort} onChange={(e) => setSort(Number(e.target.value) as ChallengeSort)}>
              {challengeSorts.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </div>
      </header>

      <ChallengeRules streamerName={site.streamerName} />

      {list === null ? (
        <div className="kb-page-loading d-flex justify-content-center align-items-center">
          <Spinner animation="border" role="status">
            <span className="visually-hidden">Loading challenges…</span>
          </Spinner>
        </div>
      ) : (
        <>
          <section aria-labelledby="active-heading" className="mt-4">
            <h2 id="active-heading" className="kb-challenges-section">
              <FaFire aria-hidden className="kb-accent" /> ACTIVE <span className="kb-count">{active.length}</span>
            </h2>
            {active.length === 0 ? (
              <p className="kb-challenges-empty">
                No active challenges right now. New ones drop on stream, check back soon.
              </p>
            ) : (
              <div className="kb-challenge-grid" data-testid="active-challenges">
                {active.map((c) => (
                  <ActiveChallengeCard key={c.id} challenge={c} onClaim={setClaiming} />
                ))}
              </div>
            )}
          </section>
          <section aria-labelledby="ended-heading" className="mt-5">
            <h2 id="ended-heading" className="kb-challenges-section">
              <FaFlagCheckered aria-hidden /> ENDED <span className="kb-count">{ended.length}</span>
            </h2>
            {ended.length === 0 ? (
              <p className="kb-challenges-empty">No challenge has ended yet.</p>
            ) : (
              <div className="kb-challenge-grid" data-testid="ended-challenges">
                {ended.map((c) => (
                  <EndedChallengeCard key={c.id} challenge={c} />
                ))}
              </div>
            )}
          </section>
        </>
      )}
      <ClaimModal challenge={claiming} onClose={() => setClaiming(null)} />
    </section>
  );
}
