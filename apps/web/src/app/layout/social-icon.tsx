import { FaDiscord, FaXTwitter, FaYoutube, FaLink } from 'react-icons/fa6';
import { SiKick } from 'react-icons/si';
import type { IconType } from 'react-icons';

const icons: Record<string, IconType> = { kick: SiKick, discord: FaDiscord, x: FaXTwitter, youtube: FaYoutube };

/** A social link's icon: loaded after the page draws, out of the entry (footer.tsx). */
export default function SocialIcon({ icon }: { icon: string }) {
  const Icon = icons[icon] ?? FaLink;
  return <Icon aria-hidden />;
}
