/** /DailyRewards (docs/product.md#site-screens-and-routes): one large button that goes to the Roobet calendar. */
import { Link } from 'react-router';
import { FaArrowRight } from 'react-icons/fa6';
import { CaseArt } from './case-art';
import './daily-rewards.css';

export default function DailyRewardsPage() {
  return (
    <section className="container-xl py-5 kb-rewards-entry">
      <h1 className="visually-hidden">Daily Rewards</h1>
      <Link to="/dailyrewardroobet" className="kb-rewards-big-button">
        <span className="kb-rewards-big-cases" aria-hidden>
          <CaseArt index={0} open={false} />
          <CaseArt index={2} open />
          <CaseArt index={5} open={false} />
        </span>
        <span className="kb-rewards-big-text">
          <span className="kb-rewards-big-title">Roobet Daily Rewards</span>
          <span className="kb-rewards-big-sub">
            Open a case every day and collect 100% of the earnings from your wagering on the code
          </span>
        </span>
        <FaArrowRight aria-hidden className="kb-rewards-big-arrow" />
      </Link>
    </section>
  );
}
