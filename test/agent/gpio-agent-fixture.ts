import { createGpioDriver } from '../../agent/drivers/gpio-driver';

/*
 * An agent-side process for gpio-sigkill.test.ts: starts the gpio driver (its helper holds the
 * lines), carries out the commands it is given, says which helper it started, and waits to be killed.
 */

const gpio: unknown = JSON.parse(process.env.ONKURE_GPIO_FIXTURE_STATION ?? '{}');
const commands = JSON.parse(process.env.ONKURE_GPIO_FIXTURE_COMMANDS ?? '[]') as Parameters<
  ReturnType<typeof createGpioDriver>['carryOut']
>[1][];
let helperPid = 0;
const driver = createGpioDriver([{ station_id: 1, gpio }], {
  log: (line) => void (helperPid ||= Number(/helper pid (\d+)/.exec(line)?.[1] ?? 0)),
  python: process.env.ONKURE_GPIO_FIXTURE_PYTHON,
});
await driver.start({ status: () => undefined, prize: () => undefined, fault: () => undefined });
const outcomes = [];
for (const command of commands) outcomes.push(await driver.carryOut(1, command));
process.stdout.write(`${JSON.stringify({ helperPid, outcomes })}\n`);
// Held until the test kills this process.
setInterval(() => undefined, 1 << 30);
