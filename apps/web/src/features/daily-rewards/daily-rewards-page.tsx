/** /DailyRewards (docs/product.md#site-screens-and-routes): one large button that goes to the Roobet calendar. */
import { Link } from 'react-router';
import { FaArrowRight } from 'react-icons/fa6';
import { CaseArt } from './case-art';
import './daily-rewards.css';
import { useTranslation } from '../../i18n/i18n';

export default function DailyRewardsPage() {
  const { t } = useTranslation();
  return (
    <section className="container-xl py-5 kb-rewards-entry">
      <h1 className="visually-hidden">{t('daily.title')}</h1>
      <Link to="/dailyrewardroobet" className="kb-rewards-big-button">
        <span className="kb-rewards-big-cases" aria-hidden>
          <CaseArt index={0} open={false} />
          <CaseArt index={2} open />
          <CaseArt index={5} open={false} />
        </span>
        <span className="kb-rewards-big-text">
          <span className="kb-rewards-big-title">{t('daily.bigTitle')}</span>
          <span className="kb-rewards-big-sub">{t('daily.bigSub')}</span>
        </span>
        <FaArrowRight aria-hidden className="kb-rewards-big-arrow" />
      </Link>
    </section>
  );
}
