/**
 * The plan the explain tests read over HTTP: a Team owner's plan with planForm's defaults (start 2026-04, target ARR
 * 100,000,000 JPY in 12 months, ARPA 50,000) on a test API whose today is 2026-06-15, and `GET /explain` on it.
 */
import { planForm, startTestApi, type TestApi } from './harness';

/** One input of an explanation, as the API answers it. */
export interface ExplainedInput {
  label: string;
  key: string;
  year: number | null;
  period: string | null;
  value: number | null;
  source: string;
  explainable: boolean;
}

export const EXPLAIN_TODAY = new Date('2026-06-15T09:00:00Z');

export async function explainPlan() {
  const api: TestApi = await startTestApi({ now: () => EXPLAIN_TODAY });
  const { token: owner } = await api.user('explain-owner@example.com', 'team');
  const created = await api.call('POST', '/business-plan/create', { token: owner, form: planForm() });
  const planId: number = created.body.data.business_plan_id;
  const caseId: number = (await api.db('cases').where({ plan_id: planId }).first()).id;
  /** `GET /explain` of the plan, as the owner unless another token is given. */
  const explain = (query: Record<string, string | number>, token = owner) =>
    api.call('GET', '/explain', { token, query: { business_plan_id: planId, ...query } });
  return { api, owner, planId, caseId, explain };
}

export type ExplainPlan = Awaited<ReturnType<typeof explainPlan>>;
