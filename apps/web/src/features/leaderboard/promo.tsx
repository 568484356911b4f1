/**
 * The promo texts of a board: wager under the streamer's referral code (two codes on sites 1 and
 * 7), be active in the live chat daily, put the code in your account name for 10%+; site 5 adds
 * the swap-off warning.
 */
import Alert from 'react-bootstrap/Alert';
import { FaComments, FaIdBadge, FaTriangleExclamation, FaTicket } from 'react-icons/fa6';
import type { PublicSite } from '@kickback/common/http/leaderboards';
import { messages } from '@kickback/common/messages';

function Code({ code }: { code: string }) {
  return <strong className="kb-code">{code}</strong>;
}

function codeList(codes: string[]) {
  if (codes.length === 2) {
    return (
      <>
        <Code code={codes[0] ?? ''} /> or <Code code={codes[1] ?? ''} />
      </>
    );
  }
  return <Code code={codes[0] ?? ''} />;
}

export function Promo({ site, streamerName }: { site: PublicSite; streamerName: string }) {
  const hasCodes = site.codes.length > 0;
  const siteLink = site.referralUrl ? (
    <a href={site.referralUrl} target="_blank" rel="noreferrer">
      {site.name}
    </a>
  ) : (
    site.name
  );
  return (
    <div className="kb-promo">
      <ul className="kb-promo-list">
        <li>
          <FaTicket aria-hidden />
          <span>
            {hasCodes ? (
              <>
                Wager under code {codeList(site.codes)} on {siteLink}
              </>
            ) : (
              <>
                Wager under {streamerName}&rsquo;s referral code on {siteLink}
              </>
            )}
          </span>
        </li>
        <li>
          <FaComments aria-hidden />
          <span>Be active in {streamerName}&rsquo;s live chat daily</span>
        </li>
        <li>
          <FaIdBadge aria-hidden />
          <span>Put {hasCodes ? <Code code={site.codes[0] ?? ''} /> : 'the code'} in your account name for 10%+</span>
        </li>
      </ul>
      {site.id === 5 && (
        <Alert variant="warning" className="kb-swap-warning mb-0 mt-3 d-flex gap-2 align-items-start">
          <FaTriangleExclamation aria-hidden className="mt-1 flex-shrink-0" />
          <span>{messages.swapOffWarning}</span>
        </Alert>
      )}
    </div>
  );
}
