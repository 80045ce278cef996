/**
 * Operator accounts (docs/operator-console.md, R10-9), on the store the server uses (DATABASE_URL,
 * or the embedded store in DATA_DIR, which must not be open in a running server):
 *
 *   npm run operator -- add <login> --role admin|floor|support [--name 表示名]
 *   npm run operator -- password <login>
 *   npm run operator -- disable <login>
 *   npm run operator -- list
 *
 * A password is read from standard input: typed (not echoed) on a terminal, or piped.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { systemClock } from '../server/clock';
import { ServerConfigError } from '../server/config';
import { OPERATOR_ROLES, type OperatorRole } from '../src/domain';
import { OperatorAccountError, OperatorAccounts } from '../server/operator/operator-accounts';
import { DataDirLockedError } from '../server/store/data-dir-lock';
import { CommandStoreError, openCommandStore } from './lib/command-store';
import { migrate } from '../server/store/migrate';

const USAGE = `usage:
  npm run operator -- add <login> --role ${OPERATOR_ROLES.join('|')} [--name <display name>]
  npm run operator -- password <login>
  npm run operator -- disable <login>
  npm run operator -- list`;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

/** A password from standard input: prompted without echo on a terminal, else the first line piped. */
async function readPassword(prompt: string): Promise<string> {
  const tty = process.stdin.isTTY === true;
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: tty });
  try {
    if (!tty) {
      for await (const line of rl) return line;
      return '';
    }
    const ask = (question: string) =>
      new Promise<string>((resolve) => {
        process.stdout.write(question);
        muted = true;
        rl.question('', (answer) => {
          muted = false;
          process.stdout.write('\n');
          resolve(answer);
        });
      });
    const first = await ask(prompt);
    const again = await ask('once more: ');
    if (first !== again) throw new OperatorAccountError('the two passwords differ');
    return first;
  } finally {
    rl.close();
  }
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (!command || !['add', 'password', 'disable', 'list'].includes(command)) {
    console.error(USAGE);
    process.exit(2);
  }
  const login = args[0] && !args[0].startsWith('--') ? args[0] : undefined;
  if (command !== 'list' && !login) {
    console.error(USAGE);
    process.exit(2);
  }
  const role = option(args, 'role');
  if (command === 'add' && !OPERATOR_ROLES.includes(role as OperatorRole)) {
    console.error(`--role must be one of ${OPERATOR_ROLES.join(', ')}\n${USAGE}`);
    process.exit(2);
  }
  const password = command === 'add' || command === 'password' ? await readPassword('password: ') : '';
  const { store, release } = await openCommandStore();
  try {
    await migrate(store);
    const accounts = new OperatorAccounts(store, systemClock);
    if (command === 'add') {
      await accounts.add(login!, option(args, 'name') ?? login!, role as OperatorRole, password);
      console.log(`operator "${login}" added (${role})`);
    } else if (command === 'password') {
      await accounts.setPassword(login!, password);
      console.log(`operator "${login}": password changed, sessions ended`);
    } else if (command === 'disable') {
      await accounts.disable(login!);
      console.log(`operator "${login}" disabled, sessions ended`);
    } else {
      for (const a of await accounts.list())
        console.log(`${a.login}\t${a.role}\t${a.display_name}${a.disabled ? '\t(disabled)' : ''}`);
    }
  } finally {
    await store.close();
    release();
  }
}

main().catch((error: unknown) => {
  if (
    error instanceof OperatorAccountError ||
    error instanceof CommandStoreError ||
    error instanceof ServerConfigError ||
    error instanceof DataDirLockedError
  ) {
    console.error(`onkure operator: ${error.message}`);
    process.exit(1);
  }
  throw error;
});
