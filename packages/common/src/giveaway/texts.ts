/**
 * The giveaway's user-facing texts: the product's toasts (docs/product.md#live-errors-and-toasts,
 * spelled exactly as there) and the server's refusals.
 */
export const giveawayToasts = {
  rollFailed: 'System error occured on rolling.',
  stateFailed: 'Unable to get state.',
  participantsFailed: 'Unable to get participants.',
  winnersFailed: 'Unable to get lates winners.',
  connectFailed: 'Unable to connect giveaway sync. Please refresh.',
  clearParticipantsFailed: 'Unable to clear participants.',
  clearWinnersFailed: 'Unable to clear recent winners.',
  addKeyFailed: 'Unable to add key.',
  setKeysFailed: 'Unable set keys.',
  updateSettingFailed: 'Unable to update setting.',
} as const;

/** What each admin action on the giveaway page says when it worked (not in the contract's catalogue). */
export const giveawayDone = {
  keyAdded: (key: string) => `Key ${key} added.`,
  keysSaved: (count: number) => (count === 0 ? 'No key is active now.' : `Active keys saved (${count}).`),
  settingsSaved: 'Giveaway preferences saved.',
  participantsCleared: 'Participants cleared.',
  winnersCleared: 'Recent winners cleared.',
} as const;

export const giveawayErrors = {
  noParticipants: 'There are no participants to roll.',
  noEligible: 'No participant is eligible under the current filters and cooldown.',
  keyExists: 'That key already exists.',
  unknownKey: (key: string) => `Unknown key: ${key}. Add it first.`,
  rollNotFound: 'No such roll.',
} as const;
