import { ApiError } from '@topline/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseQuery, validQuery } from './validate';

const schema = z.strictObject({
  business_plan_id: z.coerce.number().int().positive(),
  year: z.coerce.number().optional(),
});

describe('query strings', () => {
  it('parses a query string once and answers the same frozen input after that, without building the query', () => {
    let built = 0;
    const query = () => {
      built++;
      return { business_plan_id: '7', year: '2' };
    };
    const first = parseQuery(schema, 'business_plan_id=7&year=2', query);
    expect(first).toEqual({ business_plan_id: 7, year: 2 });
    expect(Object.isFrozen(first)).toBe(true);
    expect(parseQuery(schema, 'business_plan_id=7&year=2', query)).toBe(first);
    expect(validQuery(schema, 'business_plan_id=7&year=2', query)).toBe(first);
    expect(built).toBe(1);
  });

  it('refuses an invalid query string every time, by field, and remembers none', () => {
    let built = 0;
    const query = () => {
      built++;
      return { business_plan_id: 'x' };
    };
    for (let i = 0; i < 2; i++) {
      const error = (() => {
        try {
          parseQuery(schema, 'business_plan_id=x', query);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      expect(Object.keys((error as ApiError).body.errors ?? {})).toEqual(['business_plan_id']);
    }
    expect(validQuery(schema, 'business_plan_id=x', query)).toBeUndefined();
    expect(validQuery(schema, 'business_plan_id=x&other=1', () => ({ business_plan_id: '1', other: '1' }))).toBe(
      undefined,
    );
    expect(built).toBe(3);
  });

  it('keeps each schema apart: a query string valid for one is parsed again for another', () => {
    const other = z.strictObject({ business_plan_id: z.coerce.number(), case_id: z.coerce.number() });
    expect(validQuery(schema, 'business_plan_id=3', () => ({ business_plan_id: '3' }))).toEqual({
      business_plan_id: 3,
    });
    expect(validQuery(other, 'business_plan_id=3', () => ({ business_plan_id: '3' }))).toBeUndefined();
  });
});
