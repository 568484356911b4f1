/**
 * The built-in chat commands, listed on Admin → Commands beside the custom ones
 * (docs/features/custom-commands.md#built-in-commands). Most belong to other features, whose
 * handlers recognise their own words; an alias given here is turned into those words before they
 * run. `!points` and `!links` are answered here.
 */
export interface Builtin {
  name: string;
  description: string;
  /** Answered by the custom commands' handler with this template; others belong to another feature. */
  template?: string;
}

export const builtins: readonly Builtin[] = [
  { name: 'verify', description: '!verify <code>: links a Kick account to the site.' },
  { name: 'bet', description: '!bet <answer> <points>: bets on the live prediction.' },
  { name: 'guess', description: '!guess <total>: guesses the bonus hunt’s total.' },
  { name: 'sr', description: '!sr <slot>: calls a slot (also !call).' },
  { name: 'call', description: '!call <slot>: calls a slot (also !sr).' },
  { name: 'calls', description: '!calls open|close: opens or closes slot calls (moderators).' },
  { name: 'enter', description: '!enter: enters the open bonus-buy battle.' },
  {
    name: 'points',
    description: '!points: the caller’s points balance.',
    template: 'you have {balance} points.',
  },
  {
    name: 'links',
    description: '!links: the site’s main pages.',
    template: 'Store {link:store} · Leaderboard {link:leaderboard} · Giveaway {link:giveaway} · Link your Kick {link:linkkick}',
  },
];

export const builtinByName = new Map(builtins.map((b) => [b.name, b]));
