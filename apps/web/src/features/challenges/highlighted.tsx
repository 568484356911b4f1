import { highlightParts } from './challenge-list';

/** A challenge description with the `{…}` parts highlighted. */
export function Highlighted({ text }: { text: string }) {
  return (
    <>
      {highlightParts(text).map((p, i) =>
        p.highlight ? (
          <mark key={i} className="kb-challenge-mark">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}
