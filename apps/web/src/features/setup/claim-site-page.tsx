/**
 * First run (docs/go-live.md): the one-time setup link from the server log. Whoever opens it and
 * signs in can make that account the site's Admin; the server checks the token and kills it.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import { Link, useParams } from 'react-router';
import { toast } from '../../lib/toast';
import { siteEndpoints } from '@kickback/common/http/site';
import { useAuth } from '../../shared/auth/auth-context';
import { useSite } from '../../shared/site-context';
import { callEndpoint } from '../../lib/api';
import { useEndpointMutation } from '../../lib/query';

export default function ClaimSitePage() {
  const { token = '' } = useParams();
  const site = useSite();
  const { user, signIn, refreshUser } = useAuth();
  const [claimed, setClaimed] = useState(false);
  const claim = useEndpointMutation(siteEndpoints.claimSite);
  // Whether the link still works: a used one says so rather than offering the button again.
  const link = useQuery({
    queryKey: ['setup-link', token],
    queryFn: ({ signal }) =>
      callEndpoint(siteEndpoints.checkSetupLink, { body: { token }, signal, silent: true }).catch(() => ({
        usable: false,
        message: 'This setup link is not valid: copy the whole link from the server log.',
      })),
    retry: false,
    staleTime: Infinity,
  });

  const makeMeAdmin = async () => {
    try {
      const { message } = await claim.mutateAsync({ body: { token } });
      toast.success(message);
      setClaimed(true);
      await refreshUser();
    } catch {
      // The API wrapper has shown the server's message.
    }
  };

  return (
    <section className="container py-5" style={{ maxWidth: 640 }}>
      <h1 className="h3">Claim {site.siteName}</h1>
      {claimed ? (
        <>
          <p>You are the admin of this site. The setup link no longer works.</p>
          <p>Everything a streamer runs is under the Admin menu at the top of every page.</p>
          <Link to="/" className="btn btn-primary">
            Go to the home page
          </Link>
        </>
      ) : !link.data ? (
        <p aria-busy="true">Checking the setup link…</p>
      ) : !link.data.usable ? (
        <>
          <p data-testid="setup-link-used">{link.data.message}</p>
          <Link to="/" className="btn btn-primary">
            Go to the home page
          </Link>
        </>
      ) : (
        <>
          <p>
            This one-time link makes the account you sign in with the <strong>admin</strong> of this site. It works
            once; after that, admins are made on Admin → Users.
          </p>
          {user ? (
            <>
              <p>
                Signed in as <strong>{user.username}</strong>.
              </p>
              <Button onClick={() => void makeMeAdmin()} disabled={claim.isPending}>
                Make {user.username} the admin
              </Button>
            </>
          ) : (
            <Button onClick={signIn}>Sign in to claim the site</Button>
          )}
        </>
      )}
    </section>
  );
}
