/** Slot call rows → the public views (the queue, the rules, the last pick). */
import type { SlotCallRulesView, SlotCallView } from '@kickback/common/hubs/slot-calls';
import { decimalToNumber } from '@kickback/common/money';
import { shownName, shownNameOrNull } from '@kickback/common/shown-name';
import type { SlotCallRow, SlotCallSettingsRow } from '../../db/schema/slot-calls';

export function callView(row: SlotCallRow): SlotCallView {
  return {
    id: String(row.id),
    slot: shownName(row.slot),
    provider: shownNameOrNull(row.provider),
    flagged: !row.known,
    typed: row.typed.trim() === row.slot ? null : shownName(row.typed),
    caller: shownName(row.kickUsername),
    status: row.status,
    cost: decimalToNumber(row.cost),
    refunded: row.refundedAt !== null,
    payout: row.payout === null ? null : decimalToNumber(row.payout),
    multiplier: row.multiplier === null ? null : decimalToNumber(row.multiplier),
    calledAt: row.calledAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  };
}

export function rulesView(s: SlotCallSettingsRow): SlotCallRulesView {
  return {
    maxPerViewer: s.maxPerViewer,
    cooldownSeconds: s.cooldownSeconds,
    cost: decimalToNumber(s.cost),
    linkedOnly: s.linkedOnly,
    subsOnly: s.subsOnly,
    maxQueue: s.maxQueue,
    unknownSlots: s.unknownSlots,
    blacklist: s.blacklist,
    payoutMultiplier: decimalToNumber(s.payoutMultiplier),
    payoutPoints: decimalToNumber(s.payoutPoints),
  };
}
