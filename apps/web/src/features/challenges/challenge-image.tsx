import { useState } from 'react';

export const FALLBACK_IMAGE = '/challenges/fallback.svg';

/** The challenge's image, or the fallback when it has none or it fails to load. */
export function ChallengeImage({ url, className }: { url: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <img
      src={!url || failed ? FALLBACK_IMAGE : url}
      alt=""
      loading="lazy"
      className={className}
      onError={() => setFailed(true)}
    />
  );
}
