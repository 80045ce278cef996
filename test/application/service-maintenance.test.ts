import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  ServiceMaintenance,
  type DelegatedEffect,
  type NavigatorPort,
  type ServiceSignal,
} from '../../src/application';
import { DOMAIN_MESSAGES, classifyResponse, type BuildTarget } from '../../src/domain';
import { StoredSession } from '../../src/infrastructure';
import { anAppConfig, aUserData } from '../../src/testing';

function setUp(target: BuildTarget = 'web', userStatus: number | null = 1) {
  const signals = new Subject<ServiceSignal>();
  const navigation: string[] = [];
  const navigator: NavigatorPort = {
    reload: () => navigation.push('reload'),
    goTo: (url) => navigation.push(`goTo ${url}`),
  };
  const session = new StoredSession();
  session.signIn({ user_id: 1, access_token: 'token-token-token-token' });
  const useCase = new ServiceMaintenance(
    { signals$: signals },
    navigator,
    session,
    anAppConfig({ target, yahooTopUrl: 'https://yahoo.example/onkure' }),
    // The signed-in user's data as CurrentUser holds it (only its status is read).
    { user: userStatus === null ? null : aUserData({ login_info: { ...aUserData().login_info, status: userStatus } }) },
  );
  const effects: DelegatedEffect['type'][] = [];
  useCase.effects$.subscribe((e) => effects.push(e.type));
  const send = (error_code: number, error_info = '', via: 'answer' | 'push' = 'answer') => {
    const decision = classifyResponse({ error_code, error_info }, target);
    if (decision.kind !== 'maintenance') throw new Error('not a maintenance code');
    signals.next({ kind: 'maintenance', code: decision.code, error_code, effects: decision.effects, via });
  };
  return { useCase, send, signals, navigation, effects, session };
}

describe('ServiceMaintenance', () => {
  it('[R8-5] [R4.6-1] emergency: stops sound, stream and polling, then shows the maintenance screen with code and info', () => {
    const { useCase, send, effects } = setUp();
    send(9001, '只今メンテナンス中です。');
    expect(effects).toEqual(['stopSound', 'resetStream', 'stopPolling']);
    expect(useCase.snapshot.screen).toEqual({ code: 9001, info: '只今メンテナンス中です。' });
  });

  it('[R8-6] reloaderror: stops everything, shows the Japanese reload alert and stops the modal; confirming reloads', () => {
    const { useCase, send, effects, navigation } = setUp();
    send(9003);
    expect(effects).toEqual(['stopSound', 'resetStream', 'stopPolling', 'stopModal']);
    expect(useCase.snapshot.alert).toBe(DOMAIN_MESSAGES.reloadError);
    useCase.confirmAlert();
    expect(useCase.snapshot.alert).toBeNull();
    expect(navigation).toEqual(['reload']);
  });

  it('[R4.6-2] [R6-8] cancellation reloads on web, goes to the yahoo top on yahoo, and resets auth on mobage', () => {
    const web = setUp('web');
    web.send(9004);
    expect(web.navigation).toEqual(['reload']);
    const yahoo = setUp('yahoo');
    yahoo.send(9004);
    expect(yahoo.navigation).toEqual(['goTo https://yahoo.example/onkure']);
    const mobage = setUp('mobage');
    mobage.send(9004);
    expect(mobage.navigation).toEqual([]);
    expect(mobage.session.current()).toBeNull();
  });

  it('[R4.1-2] a status-3 user ignores maintenance pushes but not answers; others and guests heed both', () => {
    const exempt = setUp('web', 3);
    exempt.send(9001, '緊急メンテナンス中です。', 'push');
    exempt.send(9004, '', 'push');
    expect(exempt.useCase.snapshot.screen).toBeNull();
    expect(exempt.effects).toEqual([]);
    expect(exempt.navigation).toEqual([]);
    // An answer to their own call is still heeded (the server let them through the emergency).
    exempt.send(9002, 'ご利用いただけません。');
    expect(exempt.useCase.snapshot.screen).toEqual({ code: 9002, info: 'ご利用いただけません。' });
    for (const status of [1, null]) {
      const other = setUp('web', status);
      other.send(9001, '緊急メンテナンス中です。', 'push');
      expect(other.useCase.snapshot.screen).toEqual({ code: 9001, info: '緊急メンテナンス中です。' });
    }
  });

  it('[R6-9] a request blocked by the logout cookie raises the reload alert', () => {
    const { useCase, signals } = setUp();
    signals.next({ kind: 'loggedOut' });
    expect(useCase.snapshot.alert).toBe(DOMAIN_MESSAGES.reloadError);
  });
});
