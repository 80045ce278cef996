import { accountRoutes } from './account.routes';
import { analyticsRoutes } from './analytics.routes';
import { authRoutes } from './auth.routes';
import { clipRoutes } from './clips.routes';
import { contentsRoutes } from './contents.routes';
import { deliveryRoutes } from './delivery.routes';
import type { ApiDeps } from './deps';
import { devOperatorRoutes } from './dev-operator.routes';
import { devWalletRoutes } from './dev-wallet.routes';
import { imageRoutes } from './images.routes';
import { kujiRoutes } from './kuji.routes';
import { operatorRoutes } from './operator.routes';
import { operatorConsoleRoutes } from './operator-console.routes';
import { operatorAgentsRoutes } from './operator-agents.routes';
import { playRoutes } from './play.routes';
import { purchaseRoutes } from './purchase.routes';
import { stationFeedRoutes } from './station-feed.routes';
import { storeRoutes } from './store.routes';
import { supportRoutes } from './support.routes';
import { userRoutes } from './user.routes';
import { virtualCraneRoutes } from './virtualcrane.routes';

/** Registers every API route module under the API prefix. Each module adds its own calls. */
export async function registerApiRoutes(deps: ApiDeps): Promise<void> {
  await contentsRoutes(deps);
  await imageRoutes(deps);
  await playRoutes(deps);
  await stationFeedRoutes(deps);
  await clipRoutes(deps);
  await operatorRoutes(deps);
  await operatorConsoleRoutes(deps);
  await operatorAgentsRoutes(deps);
  await kujiRoutes(deps);
  await virtualCraneRoutes(deps);
  await storeRoutes(deps);
  await userRoutes(deps);
  await accountRoutes(deps);
  await authRoutes(deps);
  await purchaseRoutes(deps);
  await deliveryRoutes(deps);
  await supportRoutes(deps);
  await analyticsRoutes(deps);
  await devOperatorRoutes(deps);
  await devWalletRoutes(deps);
}
