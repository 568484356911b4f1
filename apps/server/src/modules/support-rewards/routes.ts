/** Admin → Support rewards (`/api/admin/support-rewards…`): amounts, the rewards kept, reverse, grant. */
import type { FastifyInstance } from 'fastify';
import { supportRewardEndpoints, supportRewardMessages } from '@kickback/common/http/support-rewards';
import { deliverSimulatedEvent, simulatedSupportEvent } from '../../integrations/kick/simulator';
import { conflict } from '../../lib/errors';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { grantSupportReward, listHeldRewards, listSupportRewards, reverseSupportReward } from './admin';
import { EARN_READ } from './service';
import { presentSettings, readSettingsRow, updateSettings } from './settings';
import { said } from '../../lib/i18n';

export async function supportRewardRoutes(app: FastifyInstance): Promise<void> {
  route(app, supportRewardEndpoints.settings, async () => presentSettings(await readSettingsRow(app.db)));

  route(app, supportRewardEndpoints.updateSettings, async (request) => {
    const settings = await updateSettings(app.db, currentUser(request), request.body, app.clock.now());
    app.reads.invalidate(EARN_READ); // committed: the public "How to earn points" shows the new amounts
    return { message: supportRewardMessages.saved, settings };
  });

  route(app, supportRewardEndpoints.list, async (request) => listSupportRewards(app.db, request.query.page));

  route(app, supportRewardEndpoints.held, async () => listHeldRewards(app.db));

  route(app, supportRewardEndpoints.reverse, async (request) => {
    const reward = await reverseSupportReward(app.db, currentUser(request), request.params.id, app.clock.now());
    return { message: supportRewardMessages.reversed, reward };
  });

  // The simulator's support events, through the real webhook path (as the Chat Simulator's chat).
  route(app, supportRewardEndpoints.simulate, async (request) => {
    if (!app.config.kick.simulator) throw conflict(said('common:chatSimulatorOff'));
    const now = app.clock.now();
    const broadcaster = {
      userId: app.config.kick.broadcasterUserId ?? '1000001',
      username: app.config.site.kickChannel,
    };
    const { type, payload } = simulatedSupportEvent(
      request.body.kind,
      request.body.username ?? null,
      request.body.units,
      broadcaster,
      now,
    );
    const delivery = await deliverSimulatedEvent(app.http, app.config.publicUrl, type, payload, now);
    return { status: delivery.status };
  });

  route(app, supportRewardEndpoints.grant, async (request) => {
    const reward = await grantSupportReward(app.db, currentUser(request), request.body, app.clock.now());
    app.supportRewards.announcer.schedule();
    return { message: supportRewardMessages.granted, reward };
  });
}
