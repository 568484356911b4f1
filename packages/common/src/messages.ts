/**
 * The user-facing texts of the contract (docs/product.md#site-errors-and-toasts,
 * docs/product.md#live-errors-and-toasts), in one place. Server and web both import these so a
 * toast the contract names is spelled exactly once.
 */
import { formatAmount } from './money';

export const messages = {
  // Part 1 — sign-in and shell
  signedIn: 'Signed in.',
  signedOut: 'Signed out.',
  authenticationFailed: 'Authentication failed.',
  // Sign-in edge cases (docs/features/sign-in-and-age-gate.md#sign-in)
  signInCancelled: 'Sign-in cancelled. You are not signed in.',
  signInWindowClosed: 'The sign-in window was closed before you finished. You are not signed in.',
  allowPopups: 'Allow pop-ups for this site to sign in',
  badReturnPath: 'returnTo must be a path on this site, like /store.',
  authorizationError: 'Authorization error.',
  systemError: 'System error.',
  handledApiError: 'Handled api error.',
  pleaseSignInFirst: 'Please sign in first.',
  firstLogInPlease: 'First log in please.',
  alreadyLinkedClash: 'You have already linked a clash account.',
  kickNotLinked: 'You havent linked your kick',
  discordNotLinked: 'You havent linked your discord',
  copiedToClipboard: 'Copied to clipboard.',
  messageSent: 'Message successfully sent.',
  challengeCreated: 'Challenge successfully created.',
  challengeUpdated: 'Challenge successfully updated.',
  settingsUpdated: 'Settings successfully updated.',
  connectionUnlinked: 'Connection successfully unlinked.',
  // Part 2 — games
  gameCreated: 'Game successfully created.',
  gameCancelled: 'Game cancelled.',
  unableToConnectGame: 'Unable to connect the game.',
  unableToJoinGame: 'Unable to join the game.',
  unableToSelect: 'Unable to select.',
  chatMessageNotSent: 'Chat message could not be sent.',
  // Deal or No Deal toasts (docs/product.md#live-errors-and-toasts)
  unableToGetGameState: 'Unable to get game state.',
  unableToAnswerOffer: 'Unable to answer the offer.',
  unableToSelectBox: 'Unable to select box.',
  unableToReconnectGame: 'Unable to reconnect the game.',
  // Part 2 — leaderboards
  weeklyLeaderboard: 'Weekly Leaderboard',
  previousLeaderboard: 'Previous Leaderboard',
  showPreviousLeaderboard: 'Show Previous Leaderboard',
  showCurrentLeaderboard: 'Show Current Leaderboard',
  clashIdTitle: 'Clash Id',
  ruleOnCodeAtEnd: 'You must be on the code when the leaderboard ends or you lose the prize.',
  ruleWagerAbuse: 'Wager abuse disqualifies.',
  roobetRuleRtp:
    'Games with an RTP of 97% or less count 100% of the wager, above 97% count 50%, and 98% and above count 10%.',
  roobetRuleGames: 'Only Slots and Housegames count; Dice is excluded.',
  swapOffWarning: 'Swapping off the code during the week means automatic disqualification.',
  // Accounts: linking Kick, Discord and partner ids (not in the contract's catalogue)
  kickLinked: 'Your Kick account is linked.',
  kickAlreadyLinked: 'Your Kick account is already linked. Unlink it first to link another.',
  kickNotLinkedToUnlink: 'No Kick account is linked.',
  discordLinked: 'Your Discord account is linked.',
  discordNotLinkedToUnlink: 'No Discord account is linked.',
  discordAlreadyLinked: 'Your Discord account is already linked. Unlink it first to link another.',
  discordTaken: 'That Discord account is already linked to another user.',
  discordDenied: 'Discord linking was cancelled.',
  discordStateMismatch: 'Discord linking expired or was started in another window. Please try again.',
  discordFailed: 'Discord could not be reached. Please try again.',
  discordUnavailable: 'Discord linking is not available right now.',
  chatSimulatorOff: 'The chat simulator is off on this server.',
  // Server-side messages (not in the contract's catalogue, but shown through the API wrapper)
  notFound: 'Not found.',
  signInRequired: 'Sign in required.',
  forbidden: 'You do not have permission to do that.',
  csrfRejected: 'Request rejected: missing or invalid request origin.',
  tooManyRequests: 'Too many requests. Please slow down.',
} as const;

/** "Earned {amount} gems." for type 1, "coins" for the other daily reward types (docs/product.md#site-errors-and-toasts). */
export function earnedMessage(amount: number, rewardType: number): string {
  const word = rewardType === 1 ? 'gems' : 'coins';
  return `Earned ${formatAmount(amount)} ${word}.`;
}
