export const DEFAULT_AVATAR = '/avatars/default.svg';

/** A round avatar with the default picture when the url is missing or broken. */
export function Avatar({ url, size = 40, alt = '' }: { url: string | null | undefined; size?: number; alt?: string }) {
  return (
    <img
      className="kb-avatar"
      src={url || DEFAULT_AVATAR}
      alt={alt}
      width={size}
      height={size}
      loading="lazy"
      onError={(e) => {
        if (!e.currentTarget.src.endsWith(DEFAULT_AVATAR)) e.currentTarget.src = DEFAULT_AVATAR;
      }}
    />
  );
}
