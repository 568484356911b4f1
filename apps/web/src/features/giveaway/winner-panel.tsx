/** The winner panel: avatar, the Kick name in its Kick colour, linked ids (as links) and partner flags. */
import type { GiveawayParticipant } from '@kickback/common/hubs/giveaway';
import { Avatar } from '../../components/ui/avatar';
import { readableKickColour } from '../../components/draw/kick-colour';
import { useTranslation } from '../../i18n/i18n';

const flags = [
  ['isActiveOnClash', 'Clash'],
  ['isActiveOnCsGoBig', 'CSGOBig'],
  ['isActiveRustMagic', 'RustMagic'],
  ['isActiveOnHowl', 'Howl'],
  ['isActiveOnRoobet', 'Roobet'],
  ['wagered10k', null],
] as const;

export function WinnerCard({ winner }: { winner: GiveawayParticipant }) {
  const { t } = useTranslation();
  const a = winner.account;
  return (
    <div className="kb-winner-card" data-testid="giveaway-winner">
      <Avatar url={a?.avatarUrl} size={72} alt="" />
      <div>
        <div className="kb-winner-name" style={{ color: readableKickColour(winner.identity.color) }}>
          {winner.username}
          {winner.isSubscriber && <span className="badge text-bg-secondary ms-2">{t('giveaway.sub')}</span>}
        </div>
        <div className="small">
          <a href={`https://kick.com/${encodeURIComponent(winner.username)}`} target="_blank" rel="noreferrer">
            kick.com/{winner.username}
          </a>
          {a?.steam64id && (
            <>
              {' · '}
              <a href={`https://steamcommunity.com/profiles/${a.steam64id}`} target="_blank" rel="noreferrer">
                Steam {a.steam64id}
              </a>
            </>
          )}
          {a?.clashId && <> · Clash {a.clashId}</>}
          {a?.rustMagicId && <> · RustMagic {a.rustMagicId}</>}
          {a?.roobetName && <> · Roobet {a.roobetName}</>}
          {!a && <span className="text-body-secondary"> · {t('giveaway.notLinked')}</span>}
        </div>
        <div className="kb-winner-flags">
          {flags.map(([key, label]) => (
            <span key={key} className={`badge ${winner[key] ? 'text-bg-success' : 'text-bg-dark'}`}>
              {winner[key] ? '✓' : '✗'} {label ?? t('giveaway.wagered10k')}
            </span>
          ))}
        </div>
      </div>
    </div>
  );
}
