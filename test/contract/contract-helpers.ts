import { firstValueFrom, type Observable } from 'rxjs';
import { expect } from 'vitest';
import { TOKENS, type AddressDraft } from '../../src/application';
import { isPostResponseError, type PostResponseError } from '../../src/infrastructure';
import type { AppClient, ContractDriver } from './harness';

/** The one value a port's cold observable emits. */
export const once = <T>(source: Observable<T>): Promise<T> => firstValueFrom(source);

/** The PostResponseError a call is refused with (fails the test if it succeeds or fails otherwise). */
export async function refusal(source: Observable<unknown>, code?: number): Promise<PostResponseError> {
  let caught: unknown = null;
  try {
    await firstValueFrom(source);
  } catch (error) {
    caught = error;
  }
  expect(isPostResponseError(caught), `expected a PostResponseError, got ${String(caught)}`).toBe(true);
  const error = caught as PostResponseError;
  if (code !== undefined) expect(error.code).toBe(code);
  expect(error.info).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
  return error;
}

/** A client signed in with a token the service never issued for that user. */
export function forgedClient(driver: ContractDriver, userId: number): AppClient {
  const client = driver.client();
  client.get(TOKENS.SessionPort).signIn({ user_id: userId, access_token: `forged-${'z'.repeat(40)}` });
  return client;
}

let counter = 0;
/** A fresh e-mail address (the service lower-cases it). */
export function uniqueEmail(): string {
  counter += 1;
  return `player${counter}.${Date.now().toString(36)}@example.jp`;
}
/** A fresh debug user name. */
export function uniqueDebugName(): string {
  counter += 1;
  return `dbg${counter}_${Date.now().toString(36)}`.slice(0, 20);
}

/** A valid Japanese address as the registration form holds it. */
export function anAddress(overrides: Partial<AddressDraft> = {}): AddressDraft {
  return {
    isMain: false,
    lastName: '山田',
    firstName: '花子',
    zip: '150-0041',
    address1: '東京都',
    address2: '渋谷区神南1-2-3',
    address3: 'オンクレハイツ101',
    tel: '090-1234-5678',
    email: '',
    leadTimes: '',
    ...overrides,
  };
}

/** The six-digit code of the newest dev-outbox message of a channel. */
export async function latestCode(client: AppClient, channel: 'email' | 'sms'): Promise<string> {
  const outbox = await once(client.get(TOKENS.AuthPort).devOutbox());
  const message = outbox.find((m) => m.channel === channel);
  const code = /認証コード: ([0-9]{6})/.exec(message?.body ?? '')?.[1];
  if (!code) throw new Error(`no ${channel} code in the dev outbox`);
  return code;
}
