import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { KnownRoutesProvider, useHasRoute } from './known-routes';
import { routes } from '../app/routes';

function Probe({ paths }: { paths: string[] }) {
  const hasRoute = useHasRoute();
  return <p>{paths.map((p) => `${p}=${hasRoute(p)}`).join(' ')}</p>;
}

afterEach(cleanup);

describe('known routes', () => {
  it('answers from the route table the shell provides, ignoring case; without one, nothing is known', () => {
    render(
      <KnownRoutesProvider paths={routes.map((r) => r.path)}>
        <Probe paths={['/', '/STORE', '/no-such-page']} />
      </KnownRoutesProvider>,
    );
    expect(screen.getByText(/\/=/).textContent).toBe('/=true /STORE=true /no-such-page=false');
    cleanup();
    render(<Probe paths={['/']} />);
    expect(screen.getByText(/\/=/).textContent).toBe('/=false');
  });
});
