/** /live (public): everything running right now — games, prediction, giveaway, bonus hunt. */
import { LiveNowList } from './live-now';

export default function LivePage() {
  return (
    <div className="container-xl py-4">
      <LiveNowList headingLevel={1} />
    </div>
  );
}
