/**
 * /RoobetVip (docs/product.md#vip-page): the static explanation of VIP transfers to Roobet — the code
 * requirement, the 3-week evaluation and the benefits. The code and link come from the Roobet
 * leaderboard settings when the admin set them.
 */
import {
  FaArrowRight,
  FaCrown,
  FaDiscord,
  FaGift,
  FaHeadset,
  FaPercent,
  FaRankingStar,
  FaTicket,
  FaCalendarCheck,
  FaArrowRightArrowLeft,
} from 'react-icons/fa6';
import { useSite } from '../../shared/site-context';
import { useRoobetSite } from '../../lib/roobet-site';
import './vip.css';

const EVALUATION_WEEKS = 3;

const benefits = [
  {
    icon: FaRankingStar,
    title: 'Your rank, matched',
    text: 'Start at a Roobet VIP level that reflects the status you earned elsewhere instead of climbing from zero.',
  },
  {
    icon: FaPercent,
    title: 'Boosted rakeback',
    text: 'A higher share of the house edge comes back to you on every bet, credited automatically.',
  },
  {
    icon: FaGift,
    title: 'Bonuses and reloads',
    text: 'Weekly and monthly bonuses sized to your play, plus reloads and level-up rewards as you rank up.',
  },
  {
    icon: FaHeadset,
    title: 'A personal VIP host',
    text: 'One contact at Roobet who knows your account: quicker answers, tailored offers, priority support.',
  },
];

export default function RoobetVipPage() {
  const site = useSite();
  const roobet = useRoobetSite();
  const code = roobet?.codes[0] ?? null;
  const discord = site.socials.find((s) => s.icon === 'discord');
  const codeText = code ? <strong className="kb-code">{code}</strong> : <>{site.streamerName}&rsquo;s code</>;

  const steps = [
    {
      icon: FaTicket,
      title: 'Be on the code',
      text: (
        <>
          Sign up on Roobet with code {codeText}, or switch your existing account to it. Transfers are only available to
          players on the code, and you must stay on it.
        </>
      ),
    },
    {
      icon: FaArrowRightArrowLeft,
      title: 'Request the transfer',
      text: (
        <>
          Open a ticket in the {site.streamerName} Discord with your Roobet username and proof of your current VIP
          status (a screenshot of your VIP page on the other site).
        </>
      ),
    },
    {
      icon: FaCalendarCheck,
      title: `${EVALUATION_WEEKS}-week evaluation`,
      text: (
        <>
          Play as you normally would for {EVALUATION_WEEKS} weeks. Roobet reviews your wagering over the whole period,
          then sets your VIP level to match it.
        </>
      ),
    },
    {
      icon: FaCrown,
      title: 'Enjoy VIP',
      text: <>Your level, rakeback and bonuses go live, and your VIP host gets in touch.</>,
    },
  ];

  return (
    <div className="kb-vip">
      <section className="kb-vip-hero">
        <div className="container-xl py-5 kb-vip-hero-grid">
          <div>
            <p className="kb-eyebrow mb-2">
              <FaCrown aria-hidden /> Roobet VIP
            </p>
            <h1 className="kb-vip-title">Bring your VIP status to Roobet</h1>
            <p className="kb-vip-lead">
              Already a VIP on another site? Move to Roobet under {codeText} and have your status matched after a{' '}
              {EVALUATION_WEEKS}-week evaluation, with the rakeback, bonuses and personal host that come with it.
            </p>
            <div className="d-flex flex-wrap gap-2 mt-4">
              {discord && (
                <a className="btn btn-primary btn-lg" href={discord.url} target="_blank" rel="noreferrer">
                  <FaDiscord aria-hidden className="me-2" />
                  Start a transfer
                </a>
              )}
              {roobet?.referralUrl && (
                <a className="btn btn-outline-light btn-lg" href={roobet.referralUrl} target="_blank" rel="noreferrer">
                  Open Roobet <FaArrowRight aria-hidden className="ms-1" />
                </a>
              )}
            </div>
          </div>
          <div className="kb-vip-card" aria-hidden>
            <FaCrown className="kb-vip-card-crown" />
            <span className="kb-vip-card-label">VIP</span>
            <span className="kb-vip-card-code">{code ?? site.streamerName.toUpperCase()}</span>
            <span className="kb-vip-card-chip" />
          </div>
        </div>
      </section>

      <div className="container-xl py-5">
        <section aria-labelledby="vip-requirement" className="kb-vip-requirement">
          <FaTicket aria-hidden className="kb-vip-requirement-icon" />
          <div>
            <h2 id="vip-requirement" className="h5 mb-1">
              The code requirement
            </h2>
            <p className="mb-0">
              VIP transfers are for players on code {codeText} only. Your account must be on the code when you ask,
              during the whole evaluation and afterwards; leaving the code ends the VIP arrangement.
            </p>
          </div>
        </section>

        <section aria-labelledby="vip-how" className="mt-5">
          <h2 id="vip-how" className="kb-vip-h2">
            How a transfer works
          </h2>
          <ol className="kb-vip-steps">
            {steps.map((s, i) => (
              <li key={s.title} className="kb-vip-step">
                <span className="kb-vip-step-number" aria-hidden>
                  {i + 1}
                </span>
                <s.icon aria-hidden className="kb-vip-step-icon" />
                <h3 className="h6 fw-bold mb-1">{s.title}</h3>
                <p className="mb-0">{s.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="vip-evaluation" className="mt-5 kb-vip-evaluation">
          <h2 id="vip-evaluation" className="kb-vip-h2">
            The {EVALUATION_WEEKS}-week evaluation
          </h2>
          <div className="kb-vip-weeks" aria-hidden>
            {Array.from({ length: EVALUATION_WEEKS }, (_, i) => (
              <span key={i} className="kb-vip-week">
                Week {i + 1}
              </span>
            ))}
            <span className="kb-vip-week kb-vip-week-done">
              <FaCrown /> VIP
            </span>
          </div>
          <p>
            The evaluation starts the day your ticket is accepted and lasts {EVALUATION_WEEKS} full weeks. There is no
            minimum per day: what counts is your normal level of play across the period, so play the way you usually do.
            Bonus abuse or wagering only to pass the evaluation leads to a refusal.
          </p>
          <p className="mb-0">
            At the end, Roobet sets your VIP level from what you wagered during the {EVALUATION_WEEKS} weeks together
            with the status you proved. You hear back in your ticket.
          </p>
        </section>

        <section aria-labelledby="vip-benefits" className="mt-5">
          <h2 id="vip-benefits" className="kb-vip-h2">
            Benefits
          </h2>
          <div className="kb-vip-benefits">
            {benefits.map((b) => (
              <article key={b.title} className="kb-vip-benefit">
                <b.icon aria-hidden className="kb-vip-benefit-icon" />
                <h3 className="h6 fw-bold">{b.title}</h3>
                <p className="mb-0">{b.text}</p>
              </article>
            ))}
          </div>
        </section>

        <p className="kb-vip-fineprint mt-5 mb-0">
          VIP levels and rewards are granted by Roobet at its discretion and follow Roobet&rsquo;s terms. 18+ only.
          Gamble responsibly: set limits and never wager more than you can afford to lose.
        </p>
      </div>
    </div>
  );
}
