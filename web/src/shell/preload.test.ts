import { ID_MAX } from '@topline/contract';
import { describe, expect, it } from 'vitest';
import { planIdOfPath, screenOfPath } from './preload';
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

describe('planIdOfPath', () => {
  it('reads an id the contract allows, and nothing else', () => {
    expect(planIdOfPath('/business-plans/12/pl')).toBe(12);
    expect(planIdOfPath('/business-plans/12')).toBe(12);
    expect(planIdOfPath(`/business-plans/${ID_MAX}/kpi`)).toBe(ID_MAX);
    for (const path of [
      `/business-plans/${ID_MAX + 1}/pl`,
      '/business-plans/0/pl',
      '/business-plans/012/pl',
      '/business-plans/1e3/pl',
      '/business-plans/12x/pl',
      '/business-plans/',
      '/create',
    ]) {
      expect(planIdOfPath(path), path).toBeNull();
    }
  });
});
