import { describe, expect, it } from 'vitest';
import { screenOfPath } from './preload';
import { SCREENS } from './screens';

describe('screenOfPath', () => {
  it('names the screen each side-menu path opens', () => {
    for (const screen of SCREENS) {
      const path = screen.path ? `/business-plans/7/${screen.path}` : '/business-plans/7';
      expect(screenOfPath(path)).toBe(screen.key);
    }
    expect(screenOfPath('/business-plans/7/')).toBe('dashboard');
    expect(screenOfPath('/business-plans/7/kpi/extra')).toBe('kpi');
  });

  it('names no screen for other pages or an unknown segment', () => {
    expect(screenOfPath('/login')).toBeNull();
    expect(screenOfPath('/business-plans/7/dashboard')).toBeNull();
    expect(screenOfPath('/business-plans/7/nope')).toBeNull();
    expect(screenOfPath('/business-plans/7/toString')).toBeNull();
    expect(screenOfPath('/create')).toBeNull();
  });
});
