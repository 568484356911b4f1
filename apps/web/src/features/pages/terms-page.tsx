import { useSite } from '../../shared/site-context';

export default function TermsPage() {
  const site = useSite();
  return (
    <article className="container-xl py-5 kb-prose">
      <h1>Terms of Service</h1>
      <p>
        {site.siteName} is the community site of {site.streamerName}. By signing in you agree to these terms.
      </p>
      <h2>Accounts</h2>
      <p>
        You sign in with your Steam account. You may link one Kick account, one Discord account and your usernames on
        partner sites. Linking an account you do not own, or running several accounts, leads to exclusion from points,
        leaderboards and prizes.
      </p>
      <h2>Points and gems</h2>
      <p>
        Points and gems are virtual. They have no cash value, cannot be sold or transferred, and may be adjusted to
        correct errors or abuse. Store items and prizes are delivered by hand, usually within 24 hours.
      </p>
      <h2>Leaderboards, challenges and giveaways</h2>
      <p>
        Prizes go to eligible players on the streamer&rsquo;s code. Wager abuse, self-dealing and leaving the code
        before a period ends disqualify. Giveaway draws are verifiable: the seed hash is published before each roll.
      </p>
      <h2>Age and responsible play</h2>
      <p>
        Partner sites are for adults only, under their own terms. Never wager more than you can afford to lose. Contact
        us at <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a> if you want your account excluded.
      </p>
    </article>
  );
}
