import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <section className="container-xl py-5 text-center">
      <p className="display-1 fw-bold kb-accent mb-0">404</p>
      <h1 className="h3">This page does not exist</h1>
      <p className="text-body-secondary">The link may be old, or the page moved.</p>
      <Link to="/" className="btn btn-primary">
        Back to the home page
      </Link>
    </section>
  );
}
