import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUILD_TARGETS,
  classifyResponse,
  DOMAIN_MESSAGES,
  isSuccessResponse,
  MAINTENANCE_CODES,
  SUCCESS_CODE,
  type BuildTarget,
} from '../../../src/domain';

const halt = [{ type: 'stopSound' }, { type: 'resetStream' }, { type: 'stopPolling' }];

describe('response classification', () => {
  it('[R8-1] a response is successful exactly when error_code is 200', () => {
    expect(SUCCESS_CODE).toBe(200);
    fc.assert(
      fc.property(fc.integer(), (code) => {
        expect(isSuccessResponse({ error_code: code })).toBe(code === 200);
        expect(classifyResponse({ error_code: code, error_info: '' }, 'web').kind === 'success').toBe(code === 200);
      }),
    );
  });

  it('the four maintenance codes are distinct and clear of 200 and the VIP codes', () => {
    const codes = Object.values(MAINTENANCE_CODES);
    expect(new Set(codes).size).toBe(4);
    for (const c of codes) expect([200, 531, 569, 570, 571]).not.toContain(c);
  });

  it('[R4.6-1] [R8-5] emergency stops sound, stream and polling and shows the maintenance screen with code and info', () => {
    const d = classifyResponse(
      { error_code: MAINTENANCE_CODES.emergency, error_info: '緊急メンテナンス中です' },
      'web',
    );
    expect(d).toEqual({
      kind: 'maintenance',
      code: 'emergency',
      effects: [
        ...halt,
        { type: 'showMaintenanceScreen', code: MAINTENANCE_CODES.emergency, info: '緊急メンテナンス中です' },
      ],
    });
  });

  it('[R8-5] invaliduser does the same as emergency', () => {
    const d = classifyResponse({ error_code: MAINTENANCE_CODES.invaliduser, error_info: 'x' }, 'ios');
    expect(d.kind === 'maintenance' && d.code).toBe('invaliduser');
    expect(d.kind === 'maintenance' && d.effects).toEqual([
      ...halt,
      { type: 'showMaintenanceScreen', code: MAINTENANCE_CODES.invaliduser, info: 'x' },
    ]);
  });

  it('[R8-6] reloaderror stops sound, stream and polling, shows the Japanese reload-error alert and stops the modal', () => {
    const d = classifyResponse({ error_code: MAINTENANCE_CODES.reloaderror, error_info: '' }, 'android');
    expect(d.kind === 'maintenance' && d.effects).toEqual([
      ...halt,
      { type: 'showAlert', alert: 'reloadError', message: DOMAIN_MESSAGES.reloadError },
      { type: 'stopModal' },
    ]);
    expect(DOMAIN_MESSAGES.reloadError).toMatch(/再読み込み/);
  });

  it('[R4.6-2] the cancellation code reloads the page; yahoo goes to its top page; mobage resets auth', () => {
    const action = (target: BuildTarget) => {
      const d = classifyResponse({ error_code: MAINTENANCE_CODES.cancellation, error_info: '' }, target);
      return d.kind === 'maintenance' ? d.effects : null;
    };
    expect(action('web')).toEqual([{ type: 'reloadPage' }]);
    expect(action('ios')).toEqual([{ type: 'reloadPage' }]);
    expect(action('android')).toEqual([{ type: 'reloadPage' }]);
    expect(action('yahoo')).toEqual([{ type: 'redirectToYahooTop' }]);
    expect(action('mobage')).toEqual([{ type: 'resetAuth' }]);
  });

  it('other codes are plain failures carrying code and info, on every target', () => {
    const known = new Set<number>([200, ...Object.values(MAINTENANCE_CODES)]);
    fc.assert(
      fc.property(
        fc.integer().filter((c) => !known.has(c)),
        fc.string(),
        fc.constantFrom(...BUILD_TARGETS),
        (code, info, target) => {
          expect(classifyResponse({ error_code: code, error_info: info }, target)).toEqual({
            kind: 'failure',
            error_code: code,
            error_info: info,
          });
        },
      ),
    );
  });
});
