import { useSite } from '../../shared/site-context';

export default function PrivacyPage() {
  const site = useSite();
  return (
    <article className="container-xl py-5 kb-prose">
      <h1>Privacy Policy</h1>
      <p>We keep only what the site needs to work.</p>
      <h2>What we store</h2>
      <ul>
        <li>Your SteamID, Steam display name and avatar, from Steam at sign-in.</li>
        <li>Your linked Kick and Discord ids and names, and the partner-site usernames you enter.</li>
        <li>Your points, gems, orders, claims and game results, with their history.</li>
        <li>A session cookie that keeps you signed in. We use no tracking or advertising cookies.</li>
      </ul>
      <h2>What we show</h2>
      <p>
        Leaderboards show masked usernames unless you choose to show your name. Game players and giveaway winners are
        shown on stream.
      </p>
      <h2>Your choices</h2>
      <p>
        You can unlink Kick and Discord at any time from your profile. To have your account deleted, write to{' '}
        <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>.
      </p>
    </article>
  );
}
