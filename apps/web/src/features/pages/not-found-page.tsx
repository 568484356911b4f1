import { Link } from 'react-router';
import { useTranslation } from '../../i18n/i18n';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="container-xl py-5 text-center">
      <p className="display-1 fw-bold kb-accent mb-0">404</p>
      <h1 className="h3">{t('notFound.title')}</h1>
      <p className="text-body-secondary">{t('notFound.text')}</p>
      <Link to="/" className="btn btn-primary">
        {t('notFound.home')}
      </Link>
    </section>
  );
}
