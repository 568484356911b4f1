/**
 * A thin line on every page (not on the OBS overlays, which have their own entry) while sign-in
 * goes through the dev identity provider: anyone can pick any account there, so nobody should
 * mistake such a site for a live one (docs/go-live.md).
 */
import { useSite } from '../../shared/site-context';

export function DevSignInBanner() {
  const site = useSite();
  if (!site.devSignIn) return null;
  return (
    <aside className="kb-dev-banner" aria-label="Development sign-in">
      Dev sign-in is on: anyone can sign in as any account, admins included. Fine on your own computer; a live site
      signs in with Steam.
    </aside>
  );
}
