/**
 * Which Kick events and OAuth scopes each feature needs (docs/features/kick-events-and-bans.md):
 * the app subscribes to the events of the features that are on, and "Connect Kick bot" asks for
 * the scopes of those features only. A feature whose events have a registered handler is on (the
 * modules register handlers only for what they do), so a feature added later turns its events and
 * scopes on by registering.
 */
import type { KickEventHandlers } from './event-handlers';
import type { KickEventType } from './events';

export interface KickFeature {
  id: string;
  label: string;
  events: readonly KickEventType[];
  scopes: readonly string[];
}

export const KICK_FEATURES: readonly KickFeature[] = [
  {
    id: 'chat',
    label: 'Chat commands, chat points and bot replies',
    events: ['chat.message.sent'],
    scopes: ['user:read', 'chat:write', 'events:subscribe'],
  },
  {
    id: 'subscriptions',
    label: 'Subscriptions and gifted subs',
    events: ['channel.subscription.new', 'channel.subscription.renewal', 'channel.subscription.gifts'],
    scopes: [],
  },
  { id: 'follows', label: 'Follows', events: ['channel.followed'], scopes: [] },
  { id: 'kicks', label: 'KICKs', events: ['kicks.gifted'], scopes: ['kicks:read'] },
  { id: 'bans', label: 'Bans that count', events: ['moderation.banned'], scopes: ['moderation:ban'] },
  {
    id: 'channel-points',
    label: 'Channel-points bridge',
    events: ['channel.reward.redemption.updated'],
    scopes: ['channel:rewards:read', 'channel:rewards:write'],
  },
  {
    // On while any chat moderation filter is (docs/features/chat-moderation.md): no event of its own.
    id: 'moderation',
    label: 'Chat moderation filters',
    events: [],
    scopes: ['moderation:chat_message:manage', 'moderation:ban'],
  },
  {
    id: 'live',
    label: 'Live state and title',
    events: ['livestream.status.updated', 'livestream.metadata.updated'],
    scopes: [],
  },
];

/**
 * The features that are on: chat always, any other when one of its events has a handler or its
 * module switched it on.
 */
export function featuresOn(handlers: KickEventHandlers): KickFeature[] {
  return KICK_FEATURES.filter(
    (f) => f.id === 'chat' || f.events.some((e) => handlers.of(e).length > 0) || handlers.featureSwitchedOn(f.id),
  );
}

export function eventsToSubscribe(handlers: KickEventHandlers): KickEventType[] {
  return featuresOn(handlers).flatMap((f) => f.events);
}

/** The scopes "Connect Kick bot" asks for: those of the features that are on, space-separated. */
export function scopesToAsk(handlers: KickEventHandlers): string {
  return [...new Set(featuresOn(handlers).flatMap((f) => f.scopes))].join(' ');
}

/** Each feature that is on with the scopes it needs that `granted` (the token's scope text) lacks. */
export function missingScopes(
  handlers: KickEventHandlers,
  granted: string | null,
): Array<KickFeature & { missing: string[] }> {
  const have = new Set((granted ?? '').split(/\s+/).filter(Boolean));
  return featuresOn(handlers).map((f) => ({ ...f, missing: f.scopes.filter((s) => !have.has(s)) }));
}
