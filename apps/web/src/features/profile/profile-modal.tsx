/**
 * Profile Settings (docs/product.md#site-screens-and-routes,
 * docs/product.md#site-states-and-transitions, docs/product.md#site-validation): avatar, username
 * and points; the linked Kick and Discord accounts with Link (disabled once linked) and Unlink; the
 * wagering-site username and partner ids with Save; whether the user's name shows on leaderboards.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { toast } from 'react-toastify';
import { FaDiscord } from 'react-icons/fa6';
import { SiKick } from 'react-icons/si';
import type { LinkedAccountType } from '@kickback/common/http/accounts';
import { messages } from '@kickback/common/messages';
import { useAuth } from '../../shared/auth/auth-context';
import { useProfileModal } from '../../shared/profile-modal-context';
import { Avatar } from '../../components/ui/avatar';
import { formatAmount } from '../../lib/format';
import { startDiscordLink, unlinkAccount } from './api';
import { ConnectKickModal } from './connect-kick-modal';
import { LanguageChoice } from './language-choice';
import { useTranslation } from '../../i18n/i18n';
import { LinkedAccountRow } from './linked-account-row';
import { PartnerIdsForm } from './partner-ids-form';
import { ShowNameSwitch } from './show-name-switch';
import { StreakBadge } from './streak-badge';
import './profile.css';

export function ProfileModal() {
  const { show, close } = useProfileModal();
  const { t } = useTranslation();
  const { user, refreshUser } = useAuth();
  const [connectingKick, setConnectingKick] = useState(false);
  const [busy, setBusy] = useState<LinkedAccountType | null>(null);

  const unlink = async (type: LinkedAccountType) => {
    setBusy(type);
    try {
      const { message } = await unlinkAccount(type);
      toast.success(message);
      await refreshUser();
    } catch {
      // shown by the API wrapper
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <Modal
        show={show && user !== null && !connectingKick}
        onHide={close}
        centered
        size="lg"
        aria-labelledby="profile-modal-title"
      >
        <Modal.Header closeButton>
          <Modal.Title id="profile-modal-title">Profile Settings</Modal.Title>
        </Modal.Header>
        {user && (
          <Modal.Body className="kb-profile">
            <div className="d-flex align-items-center gap-3 mb-4">
              <Avatar url={user.avatarUrl} size={64} />
              <div className="min-w-0">
                <div className="fs-5 fw-semibold text-break">{user.username}</div>
                <div className="text-body-secondary">
                  <span className="kb-points-pill me-2">{formatAmount(user.points)} points</span>
                  {formatAmount(user.gems)} gems
                </div>
              </div>
            </div>

            <section aria-labelledby="kb-profile-accounts" className="mb-4">
              <h2 id="kb-profile-accounts" className="kb-profile-heading">
                Linked accounts
              </h2>
              <LinkedAccountRow
                icon={<SiKick />}
                service="Kick"
                linkedAs={user.kickId ? (user.kickUsername ?? user.kickId) : null}
                missingText={messages.kickNotLinked}
                linkLabel="Link Kick"
                onLink={() => setConnectingKick(true)}
                onUnlink={() => void unlink('kick')}
                busy={busy === 'kick'}
              />
              <LinkedAccountRow
                icon={<FaDiscord />}
                service="Discord"
                linkedAs={user.discordUser ? user.discordUser.username || user.discordUser.id : null}
                missingText={messages.discordNotLinked}
                linkLabel="Link Discord"
                onLink={() => startDiscordLink(window.location.pathname + window.location.search)}
                onUnlink={() => void unlink('discord')}
                busy={busy === 'discord'}
              />
            </section>

            <section aria-labelledby="kb-profile-streak" className="mb-4">
              <h2 id="kb-profile-streak" className="kb-profile-heading">
                Stream streak
              </h2>
              <StreakBadge kickLinked={user.kickId !== null && user.kickId !== ''} />
            </section>

            <section aria-labelledby="kb-profile-sites" className="mb-4">
              <h2 id="kb-profile-sites" className="kb-profile-heading">
                Wagering sites
              </h2>
              <PartnerIdsForm key={user.openId} user={user} />
            </section>

            <section aria-labelledby="kb-profile-language-title" className="mb-4">
              <h2 id="kb-profile-language-title" className="kb-profile-heading">
                {t('profile.language')}
              </h2>
              <LanguageChoice user={user} />
            </section>

            <section aria-labelledby="kb-profile-privacy">
              <h2 id="kb-profile-privacy" className="kb-profile-heading">
                Leaderboards
              </h2>
              <ShowNameSwitch key={user.openId} initial={user.showNameOnBoards} />
            </section>
          </Modal.Body>
        )}
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={close}>
            Close
          </Button>
        </Modal.Footer>
      </Modal>
      <ConnectKickModal show={show && connectingKick} onClose={() => setConnectingKick(false)} />
    </>
  );
}
