/** Where to deliver: a user's linked accounts (Kick, Discord, partner ids, SteamID), for admins. */
import { FaDiscord, FaSteam } from 'react-icons/fa6';
import { SiKick } from 'react-icons/si';
import type { Recipient } from '@kickback/common/http/fulfilment';
import './linked-accounts.css';

export type LinkedAccounts = Pick<
  Recipient,
  'steamId' | 'kickUsername' | 'discordUsername' | 'clashId' | 'rustMagicId' | 'roobetName' | 'casesId'
>;

export function LinkedAccountList({ user }: { user: LinkedAccounts }) {
  const partner: Array<[string, string | null]> = [
    ['Roobet', user.roobetName],
    ['Clash', user.clashId],
    ['RustMagic', user.rustMagicId],
    ['Cases', user.casesId],
  ];
  return (
    <ul className="kb-linked-list">
      <li>
        <FaSteam aria-hidden className="me-1" />
        <span className="kb-linked-label">Steam</span>
        <code>{user.steamId}</code>
      </li>
      <li>
        <SiKick aria-hidden className="me-1" />
        <span className="kb-linked-label">Kick</span>
        {user.kickUsername ?? <span className="text-body-secondary">not linked</span>}
      </li>
      <li>
        <FaDiscord aria-hidden className="me-1" />
        <span className="kb-linked-label">Discord</span>
        {user.discordUsername ?? <span className="text-body-secondary">not linked</span>}
      </li>
      {partner
        .filter(([, v]) => v)
        .map(([label, v]) => (
          <li key={label}>
            <span className="kb-linked-label">{label}</span>
            {v}
          </li>
        ))}
    </ul>
  );
}
