import Pagination from 'react-bootstrap/Pagination';

/** Prev · "page / pages" · Next; nothing when everything fits on one page. */
export function Pager({
  page,
  total,
  pageSize,
  onPage,
  label,
}: {
  page: number;
  total: number;
  pageSize: number;
  onPage(page: number): void;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav aria-label={label}>
      <Pagination className="mb-0">
        <Pagination.Prev disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label="Previous page" />
        <Pagination.Item active>{`${page} / ${pages}`}</Pagination.Item>
        <Pagination.Next disabled={page >= pages} onClick={() => onPage(page + 1)} aria-label="Next page" />
      </Pagination>
    </nav>
  );
}
