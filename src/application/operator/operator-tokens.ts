import type { ClockPort } from '../ports/clock.port';
import type { Token } from '../tokens';
import type { OperatorApiPort, OperatorFloorFeedPort, OperatorTokenStorePort } from './ports/operator-api.port';
import type { OperatorSession } from './operator-session.use-case';
import type { OperatorFloor, OperatorPlayLog } from './operator-floor.use-case';
import type { OperatorMessages } from './operator-messages.use-case';
import type { OperatorKuji } from './operator-kuji.use-case';
import type { OperatorFulfilment } from './operator-fulfilment.use-case';
import type { OperatorSupport } from './operator-support.use-case';
import type { OperatorNumbers } from './operator-numbers.use-case';
import type { OperatorMoney } from './operator-money.use-case';
import type { OperatorAudit } from './operator-audit.use-case';
import type { OperatorMachineKeys } from './operator-machine-keys.use-case';
import type { OperatorMachines } from './operator-machines.use-case';

function token<T>(name: string): Token<T> {
  return Symbol.for(`onkure.operator.${name}`) as Token<T>;
}

/** The console's container bindings (its own container: nothing of the player's app is bound). */
export const OPERATOR_TOKENS = {
  OperatorApiPort: token<OperatorApiPort>('OperatorApiPort'),
  OperatorTokenStorePort: token<OperatorTokenStorePort>('OperatorTokenStorePort'),
  OperatorFloorFeedPort: token<OperatorFloorFeedPort>('OperatorFloorFeedPort'),
  ClockPort: token<ClockPort>('ClockPort'),
  OperatorSession: token<OperatorSession>('OperatorSession'),
  OperatorFloor: token<OperatorFloor>('OperatorFloor'),
  OperatorPlayLog: token<OperatorPlayLog>('OperatorPlayLog'),
  OperatorMessages: token<OperatorMessages>('OperatorMessages'),
  OperatorKuji: token<OperatorKuji>('OperatorKuji'),
  OperatorFulfilment: token<OperatorFulfilment>('OperatorFulfilment'),
  OperatorSupport: token<OperatorSupport>('OperatorSupport'),
  OperatorNumbers: token<OperatorNumbers>('OperatorNumbers'),
  OperatorMoney: token<OperatorMoney>('OperatorMoney'),
  OperatorAudit: token<OperatorAudit>('OperatorAudit'),
  OperatorMachineKeys: token<OperatorMachineKeys>('OperatorMachineKeys'),
  OperatorMachines: token<OperatorMachines>('OperatorMachines'),
} as const;
