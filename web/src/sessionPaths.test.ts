import type { PlanListItem } from '@topline/contract';
import { describe, expect, it } from 'vitest';
import { landingPathFor, returnPathOf } from './session';

const plan = (id: number, isOwner: boolean) => ({ business_plan_id: id, is_owner: isOwner }) as PlanListItem;

describe('where sign-in leads', () => {
  it('goes to the first owned plan, else Create', () => {
    expect(landingPathFor([plan(3, false), plan(7, true)])).toBe('/business-plans/7/pl');
    expect(landingPathFor([plan(3, false)])).toBe('/create');
    expect(landingPathFor([])).toBe('/create');
  });

  it('goes to the plan of the invitation when the user came by its link', () => {
    expect(landingPathFor([plan(3, false)], { invited: true })).toBe('/business-plans/3/pl');
    expect(landingPathFor([plan(7, true), plan(3, false)], { invited: true })).toBe('/business-plans/3/pl');
    expect(landingPathFor([], { invited: true })).toBe('/create');
  });

  it('goes back to where a session ended only within the app', () => {
    expect(returnPathOf({ from: '/business-plans/3/kpi?x=1' })).toBe('/business-plans/3/kpi?x=1');
    expect(returnPathOf({ from: '//evil.example/' })).toBeNull();
    expect(returnPathOf({ from: 'https://evil.example/' })).toBeNull();
    expect(returnPathOf({ from: '/login' })).toBeNull();
    expect(returnPathOf({ from: 3 })).toBeNull();
    expect(returnPathOf(null)).toBeNull();
  });
});
