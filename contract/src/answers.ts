/**
 * Answers the API shapes itself, as zod schemas: the routes parse what they send, and the types come from here.
 * The screens' number answers are the engine's read models and carry the engine's types.
 */
import { CURRENCIES, TEMPLATES } from '@topline/engine/schema';
import { z } from 'zod';
import { signupAuthStatus, userView } from './accounts';
import { tierNotice } from './billing';
import { AREAS, type Area, LEVELS, TIERS } from './policy';

const level = z.enum(LEVELS);
const roles = z.object(Object.fromEntries(AREAS.map((area) => [area, level])) as Record<Area, typeof level>);

export const successAnswer = z.object({ title: z.literal('Success'), message: z.string() });
/** A 209 or 210 of the sign-in calls (product-and-account.md section 7): a refusal the client shows as it is. */
export const messageAnswer = z.object({ title: z.string(), message: z.string() });

export const signupAuthAnswer = z.object({ data: z.object({ status_code: signupAuthStatus }) });

export const planListItem = z.object({
  business_plan_id: z.number(),
  business_plan_name: z.string(),
  /** The URL of the plan's icon (GET /business-plan/icon with its hash), or null when it has none. */
  business_plan_icon: z.string().nullable(),
  is_owner: z.boolean(),
  template: z.enum(TEMPLATES),
  currency: z.enum(CURRENCIES),
  start_year: z.number(),
  start_month: z.number(),
  theme_color: z.string(),
  role: roles,
  /** Areas the plan owner's tier locks (Free), for the upgrade placeholders. */
  locked: z.array(z.enum(AREAS)),
  cases: z.array(z.object({ case_id: z.number(), case_name: z.string() })),
  version: z.number(),
});

export type PlanListItem = z.infer<typeof planListItem>;

export const meAnswer = z.object({
  data: z.object({
    user: userView,
    business_plans: z.array(planListItem),
    /** What a lower tier changed (read-only plans, members who now only view), or null. */
    notice: tierNotice.nullable(),
  }),
});
export type MeAnswer = z.infer<typeof meAnswer>;

export const memberListAnswer = z.object({
  data: z.object({
    role: z.array(
      z.object({
        name: z.string(),
        email: z.string(),
        is_owner: z.boolean(),
        /** invited: the link is out and live; joined; expired: the link expired unused (the owner may resend). */
        status: z.enum(['invited', 'joined', 'expired']),
        roles,
      }),
    ),
    tier: z.enum(TIERS),
    can_add_member: z.boolean(),
    can_grant_edit: z.boolean(),
    editor_limit: z.number(),
    editor_count: z.number(),
  }),
});
export type MemberListAnswer = z.infer<typeof memberListAnswer>;

const homeMetric = z.object({
  actual: z.object({ today: z.number(), weekly: z.number(), monthly: z.number() }),
  completion_rate: z.number().nullable(),
  daily_data: z.array(z.object({ date: z.string(), count: z.number() })),
  estimated: z.object({ monthly: z.number().nullable() }),
});
export const homeAnswer = z.object({
  calendar: z.object({ sales: homeMetric, orders: homeMetric }),
  db_chart: z.array(z.object({ iframe: z.string(), title: z.string() })),
  blog: z.array(
    z.object({
      id: z.number(),
      category: z.string(),
      thumbnail: z.string(),
      title: z.string(),
      /** The article's address; absent for an article the deployment does not publish anywhere. */
      url: z.string().optional(),
    }),
  ),
});
export type HomeAnswer = z.infer<typeof homeAnswer>;

const companyList = z.object({
  average: z.number(),
  companies: z.array(z.object({ name: z.string(), value: z.number() })),
});
export const perEmployeeAnswer = z.object({
  arr_per_employee: companyList,
  revenue_per_employee: companyList,
  alerts: z.array(z.object({ year: z.number(), arr_per_employee: z.boolean(), revenue_per_employee: z.boolean() })),
});
export type PerEmployeeAnswer = z.infer<typeof perEmployeeAnswer>;
