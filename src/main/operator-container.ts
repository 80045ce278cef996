import { Container } from 'inversify';
import {
  OPERATOR_TOKENS,
  OperatorAudit,
  OperatorFloor,
  OperatorFulfilment,
  OperatorKuji,
  OperatorMachineKeys,
  OperatorMachines,
  OperatorMessages,
  OperatorNumbers,
  OperatorMoney,
  OperatorPlayLog,
  OperatorSession,
  OperatorSupport,
  type OperatorApiPort,
  type OperatorFloorFeedPort,
  type OperatorTokenStorePort,
} from '../application/operator';
import { TOKENS, type ClockPort } from '../application';
import { KyOperatorApi, type OperatorHttpConfig } from '../infrastructure/operator/ky-operator-api.adapter';
import { SessionStorageOperatorToken } from '../infrastructure/operator/session-storage-operator-token.adapter';
import { SocketIoOperatorFloor } from '../infrastructure/operator/socket-io-operator-floor.adapter';
import { SystemClock } from '../infrastructure/time/system-clock.adapter';

export interface OperatorConsoleConfig extends OperatorHttpConfig {
  /** The socket server's address ('' = this origin). */
  readonly realtimeUrl: string;
}

/** Adapters a host may replace (tests: an in-process fetch, a scripted feed, a manual clock). */
export interface OperatorConsoleOverrides {
  readonly tokens?: OperatorTokenStorePort;
  readonly api?: OperatorApiPort;
  readonly feed?: OperatorFloorFeedPort;
  readonly clock?: ClockPort;
}

/**
 * The console's composition root: its own container (nothing of the player's app), the ky adapter
 * over the operator API, the token in sessionStorage, the live floor over socket.io. The session is
 * one per page; each screen's use-case is made when the screen opens and disposed when it closes.
 */
export function createOperatorContainer(
  config: OperatorConsoleConfig,
  overrides: OperatorConsoleOverrides = {},
): Container {
  const tokens =
    overrides.tokens ?? new SessionStorageOperatorToken(typeof sessionStorage === 'undefined' ? null : sessionStorage);
  const container = new Container({ defaultScope: 'Transient' });
  container.bind(OPERATOR_TOKENS.OperatorTokenStorePort).toConstantValue(tokens);
  container.bind(OPERATOR_TOKENS.OperatorApiPort).toConstantValue(overrides.api ?? new KyOperatorApi(config, tokens));
  container
    .bind(OPERATOR_TOKENS.OperatorFloorFeedPort)
    .toConstantValue(overrides.feed ?? new SocketIoOperatorFloor({ url: config.realtimeUrl }));
  const clock = overrides.clock ?? new SystemClock();
  container.bind(OPERATOR_TOKENS.ClockPort).toConstantValue(clock);
  // The shared display-tick hook (useNow) reads the app's clock token.
  container.bind(TOKENS.ClockPort).toConstantValue(clock);
  container.bind(OPERATOR_TOKENS.OperatorSession).to(OperatorSession).inSingletonScope();
  container.bind(OPERATOR_TOKENS.OperatorFloor).to(OperatorFloor);
  container.bind(OPERATOR_TOKENS.OperatorPlayLog).to(OperatorPlayLog);
  container.bind(OPERATOR_TOKENS.OperatorMessages).to(OperatorMessages);
  container.bind(OPERATOR_TOKENS.OperatorKuji).to(OperatorKuji);
  container.bind(OPERATOR_TOKENS.OperatorFulfilment).to(OperatorFulfilment);
  container.bind(OPERATOR_TOKENS.OperatorSupport).to(OperatorSupport);
  container.bind(OPERATOR_TOKENS.OperatorNumbers).to(OperatorNumbers);
  container.bind(OPERATOR_TOKENS.OperatorMoney).to(OperatorMoney);
  container.bind(OPERATOR_TOKENS.OperatorAudit).to(OperatorAudit);
  container.bind(OPERATOR_TOKENS.OperatorMachineKeys).to(OperatorMachineKeys);
  container.bind(OPERATOR_TOKENS.OperatorMachines).to(OperatorMachines);
  return container;
}
