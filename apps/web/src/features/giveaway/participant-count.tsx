import { useTranslation } from '../../i18n/i18n';

/** The giveaway page's badge: how many have entered, "1 participant" or "N participants". */
export function ParticipantCount({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <span className="badge text-bg-secondary" data-testid="participant-count">
      {t('giveaway.participants', { count })}
    </span>
  );
}
