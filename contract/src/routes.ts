/**
 * The route table: every /api/v1 call with its method, path, request schema (the query of a GET, the body of a
 * POST), answer schema and what the caller needs. The API registers its routes from this table and the web's client
 * takes its types from it, so the two sides cannot drift.
 */
import { z } from 'zod';
import {
  appTokenAnswer,
  emailSigninRequest,
  emailSignupRequest,
  googleAuthRequest,
  invitationAcceptRequest,
  passwordApplyRequest,
  passwordSetRequest,
  passwordVerifyRequest,
  profileEditRequest,
  signupAuthRequest,
  signupConfirmRequest,
} from './accounts';
import {
  homeAnswer,
  meAnswer,
  memberListAnswer,
  messageAnswer,
  perEmployeeAnswer,
  signupAuthAnswer,
  successAnswer,
} from './answers';
import { billingRoutes } from './billing';
import { comparisonRoutes } from './comparison';
import { explainRoutes } from './explain';
import { spreadsheetRoutes } from './googleSheets';
import { historyRoutes } from './history';
import { planImportRequest } from './planImport';
import {
  caseCreateRequest,
  caseEditRequest,
  caseIdText,
  caseRenameRequest,
  caseScoped,
  memberDeleteRequest,
  memberRequest,
  memberResendRequest,
  modelEditRequest,
  planCreateRequest,
  planEditRequest,
  planIconQuery,
  planQuery,
  planScoped,
  plColorRequest,
  revenueEditRequest,
  themeColorRequest,
  yearText,
} from './plans';
import { costAreaOf, type Scope, YEAR_KEY_AREAS } from './policy';
import type { Needs, Route } from './route';
import {
  actualsAnswer,
  costAnswer,
  dashboardAnswer,
  kpiAnswer,
  monthlyAnswer,
  plAnswer,
  planFileAnswer,
  revenueAnswer,
} from './screenAnswers';
import {
  actualsEditRequest,
  adjustEditRequest,
  cashflowEditRequest,
  commentEditRequest,
  costCreateRequest,
  costDeleteRequest,
  costEditRequest,
  csvRequest,
  homeEditRequest,
  reverseRequest,
} from './screens';
import { snapshotIdText, snapshotRoutes } from './snapshots';
import { spreadsheetFileRoutes } from './spreadsheets';
import { todoRoutes } from './todos';

type Method = 'GET' | 'POST';
type Body = Route['body'];
type File = Route['file'];
/**
 * A route, keeping its method, path, body kind and file kind as literal types for the client (which sends a FormData
 * to a multipart route and downloads a file route).
 */
const route = <
  M extends Method,
  P extends string,
  Request extends z.ZodType,
  Answer extends z.ZodType,
  N extends Needs<z.output<Request>>,
  B extends Body = undefined,
  F extends File = undefined,
>(
  r: Route<Request, Answer> & { method: M; path: P; needs: N; body?: B; file?: F },
) => r as typeof r & { body: B; file: F };
const data = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

const empty = z.strictObject({});
const PUBLIC = { kind: 'public' } as const;
const SIGNED_IN = { kind: 'signed_in' } as const;
const OWNER = { kind: 'owner' } as const;
const scope = (s: Scope) => ({ kind: 'scope', scope: s }) as const;

/** A cost item's writes need can_edit on its cost group. */
const costGroupScope = {
  kind: 'scope',
  scope: (input: { item_title: string }) => costAreaOf(input.item_title),
} as const;

/** A screen read: the plan, optionally a case, and (for the monthly P&L) optionally one plan year. */
export const screenQuery = planQuery.extend({ case_id: caseIdText.optional(), year: yearText.optional() });

/**
 * The monthly P&L's read: a screen read, and optionally a snapshot of the plan (Basic or Team, as the monthly P&L)
 * whose estimate is the budget of the progress and difference views; another plan's snapshot is a 404.
 */
export const monthlyQuery = screenQuery.extend({ snapshot_id: snapshotIdText.optional() });

const read = <P extends string, Answer extends z.ZodType>(path: P, s: Scope, answer: Answer) =>
  route({ method: 'GET', path, request: screenQuery, answer: data(answer), needs: scope(s) });
const write = <P extends string, Request extends z.ZodType, N extends Needs<z.output<Request>>>(
  path: P,
  request: Request,
  needs: N,
) => route({ method: 'POST', path, request, answer: successAnswer, needs });
const csv = <P extends string>(path: P, s: Scope) =>
  route({ method: 'GET', path, request: csvRequest, answer: z.string(), file: 'csv', needs: scope(s) });

export const routes = {
  health: route({
    method: 'GET',
    path: '/health',
    request: empty,
    answer: data(z.object({ ok: z.boolean() })),
    needs: PUBLIC,
  }),

  // Accounts (product-and-account.md section 7).
  signupAuth: route({
    method: 'POST',
    path: '/users/email-signup-auth',
    request: signupAuthRequest,
    answer: signupAuthAnswer,
    needs: PUBLIC,
  }),
  /**
   * 202 for every address: what happens next is said in the e-mail sent to it (a confirmation link for an address that
   * may sign up, a note for one that has an account or needs a demo), so the answer tells nothing about the address.
   */
  emailSignup: route({
    method: 'POST',
    path: '/users/email-signup',
    request: emailSignupRequest,
    answer: messageAnswer,
    status: 202,
    needs: PUBLIC,
  }),
  /** The e-mailed sign-up link: creates the account (joining the plans that invited it) and signs it in. */
  signupConfirm: route({
    method: 'POST',
    path: '/users/email-signup/confirm',
    request: signupConfirmRequest,
    answer: appTokenAnswer,
    status: 201,
    needs: PUBLIC,
  }),
  /** An invitation link, opened by the signed-in account of the invited address: joins the plan. */
  invitationAccept: route({
    method: 'POST',
    path: '/invitation/accept',
    request: invitationAcceptRequest,
    answer: data(z.object({ business_plan_id: z.number() })),
    needs: SIGNED_IN,
  }),
  /** 209 with a message when the address or password is wrong. */
  emailSignin: route({
    method: 'POST',
    path: '/users/email-signin',
    request: emailSigninRequest,
    answer: z.union([appTokenAnswer, messageAnswer]),
    needs: PUBLIC,
  }),
  /** 209 when the address needs a live demo first, 210 when it signs in by e-mail. */
  googleAuth: route({
    method: 'POST',
    path: '/user/google-auth',
    request: googleAuthRequest,
    answer: z.union([appTokenAnswer, messageAnswer]),
    needs: PUBLIC,
  }),
  passwordApply: write('/users/password/apply', passwordApplyRequest, PUBLIC),
  passwordVerify: route({
    method: 'POST',
    path: '/users/password/verify',
    request: passwordVerifyRequest,
    answer: data(z.object({ valid: z.boolean() })),
    needs: PUBLIC,
  }),
  passwordSet: write('/users/password/set', passwordSetRequest, PUBLIC),
  signout: write('/user/signout', empty, SIGNED_IN),
  me: route({ method: 'GET', path: '/user/me', request: empty, answer: meAnswer, needs: SIGNED_IN }),
  profileEdit: write('/user/edit', profileEditRequest, SIGNED_IN),
  ...billingRoutes,

  // Plans, cases, models, colours and members (working-screens.md section 7).
  planCreate: route({
    method: 'POST',
    path: '/business-plan/create',
    request: planCreateRequest,
    body: 'multipart',
    answer: data(z.object({ business_plan_id: z.number() })),
    status: 201,
    needs: SIGNED_IN,
  }),
  /** A plan file (MODEL.md section 9) becomes a new plan of the caller. */
  planImport: route({
    method: 'POST',
    path: '/business-plan/import',
    request: planImportRequest,
    answer: data(z.object({ business_plan_id: z.number() })),
    status: 201,
    needs: SIGNED_IN,
  }),
  planEdit: route({
    method: 'POST',
    path: '/business-plan/edit',
    request: planEditRequest,
    body: 'multipart',
    answer: successAnswer,
    needs: OWNER,
  }),
  planDelete: write('/business-plan/delete', planScoped, OWNER),
  /**
   * The plan's icon as stored (ICON_SIZE square): every member's, like Home; 404 for anyone else and for a plan
   * without one. The URL that names its hash (`v`) never changes what it answers, and may be cached for good.
   */
  planIcon: route({
    method: 'GET',
    path: '/business-plan/icon',
    request: planIconQuery,
    answer: z.string(),
    file: 'image',
    needs: scope('home'),
  }),
  themeColor: write('/business-plan/theme-color', themeColorRequest, OWNER),
  planFile: route({
    method: 'GET',
    path: '/business-plan/file',
    request: planQuery,
    answer: data(planFileAnswer),
    needs: { kind: 'every_area' },
  }),
  plColor: route({
    method: 'POST',
    path: '/pl/color',
    request: plColorRequest,
    answer: successAnswer,
    status: 201,
    needs: scope('pl'),
  }),
  caseCreate: route({
    method: 'POST',
    path: '/case/create',
    request: caseCreateRequest,
    answer: data(z.object({ new_case_id: z.number() })),
    needs: scope('pl'),
  }),
  caseDelete: write('/case/delete', caseScoped, scope('pl')),
  caseRename: write('/casename/edit', caseRenameRequest, scope('pl')),
  caseEdit: write('/case/edit', caseEditRequest, {
    kind: 'scope',
    scope: (input) => (input.key === 'case_rate' ? 'pl' : YEAR_KEY_AREAS[input.key]),
  }),
  revenueEdit: write('/revenue/edit', revenueEditRequest, scope('sales_detail')),
  modelEdit: write('/model/edit', modelEditRequest, scope('pl')),
  memberList: route({
    method: 'GET',
    path: '/authority/retrieve',
    request: planQuery,
    answer: memberListAnswer,
    needs: OWNER,
  }),
  memberAdd: write('/authority/add', memberRequest, OWNER),
  memberEdit: write('/authority/edit', memberRequest, OWNER),
  memberDelete: write('/authority/delete', memberDeleteRequest, OWNER),
  memberResend: write('/authority/resend', memberResendRequest, OWNER),

  // The working screens: every number is read from the plan's workbook.
  plRetrieve: read('/pl/retrieve', 'pl', plAnswer),
  kpiRetrieve: read('/kpi/retrieve', 'kpi', kpiAnswer),
  revenueRetrieve: read('/revenue/retrieve', 'sales_detail', revenueAnswer),
  costRetrieve: read('/cost/retrieve', 'expenses', costAnswer),
  dashboardRetrieve: read('/dashboard/retrieve', 'dashboard', dashboardAnswer),
  monthlyRetrieve: route({
    method: 'GET',
    path: '/pl/monthly/retrieve',
    request: monthlyQuery,
    answer: data(monthlyAnswer),
    needs: scope('monthly_pl'),
  }),
  actualsRetrieve: read('/actuals/retrieve', 'actuals', actualsAnswer),
  homeRetrieve: read('/home/retrieve', 'home', homeAnswer),
  perEmployee: read('/suggestions/per-employee', 'pl', perEmployeeAnswer),
  homeEdit: write('/home/edit', homeEditRequest, scope('home')),
  actualsEdit: write('/pl/monthly/edit', actualsEditRequest, scope('actuals')),
  monthReverse: write('/pl/monthly/reverse', reverseRequest, scope('actuals')),
  cashflowEdit: write('/pl/monthly/cashflow/edit', cashflowEditRequest, scope('monthly_pl')),
  commentEdit: write('/pl/monthly/comment/edit', commentEditRequest, scope('monthly_pl')),
  budgetRevise: write('/pl/monthly/adjust/edit', adjustEditRequest, scope('monthly_pl')),
  /** Creating, moving or deleting a cost item needs can_edit on its group (moving: on both groups). */
  costCreate: route({
    method: 'POST',
    path: '/cost/create',
    request: costCreateRequest,
    answer: data(z.object({ cost_id: z.number() })),
    needs: costGroupScope,
  }),
  costEdit: write('/cost/edit', costEditRequest, costGroupScope),
  costDelete: write('/cost/delete', costDeleteRequest, scope('expenses')),
  plCsv: csv('/pl/csv', 'pl'),
  revenueCsv: csv('/revenue/csv', 'sales_detail'),
  kpiCsv: csv('/kpi/csv', 'kpi'),
  // The XLSX download and import, the monthly P&L's CSV.
  ...spreadsheetFileRoutes,
  ...explainRoutes,

  // The Google Sheets round trip (working-screens.md sections 2 and 7).
  ...spreadsheetRoutes,

  // Home's shared to-dos and its reminders (working-screens.md section 2).
  ...todoRoutes,

  // A plan's history of input changes: list, a past moment's P&L, comparison, restore.
  ...historyRoutes,

  // Snapshots: a plan of record, named, downloaded and restored.
  ...snapshotRoutes,

  // Cases side by side, and what a budget revision will do.
  ...comparisonRoutes,
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

type RequestSchema<R> = R extends { request: infer S } ? (S extends (today: Date) => infer T ? T : S) : never;
/** What a call sends: the wire input of its request schema. */
export type RequestOf<N extends RouteName> = z.input<RequestSchema<Routes[N]>>;
/** What a route handler receives: the parsed request. */
export type InputOf<N extends RouteName> = z.output<RequestSchema<Routes[N]>>;
/** What a call answers, as the wire carries it. */
export type AnswerOf<N extends RouteName> = z.output<Routes[N]['answer']>;
/** The `data` of an answer that has one. */
export type DataOf<N extends RouteName> = AnswerOf<N> extends { data: infer D } ? D : AnswerOf<N>;

/** The request schema of a route as of today. */
export function requestSchema<N extends RouteName>(name: N, today: Date): RequestSchema<Routes[N]> {
  const request = routes[name].request as z.ZodType | ((today: Date) => z.ZodType);
  return (typeof request === 'function' ? request(today) : request) as RequestSchema<Routes[N]>;
}

/** Routes by path, for the client (`GET /pl/retrieve`). */
export type PathOf<N extends RouteName> = Routes[N]['path'];
export type RouteAt<M extends 'GET' | 'POST', P extends string> = {
  [N in RouteName]: Routes[N]['method'] extends M ? (Routes[N]['path'] extends P ? N : never) : never;
}[RouteName];
export type PathsOf<M extends 'GET' | 'POST'> = {
  [N in RouteName]: Routes[N]['method'] extends M ? Routes[N]['path'] : never;
}[RouteName];
/** The routes whose body is a multipart form (text fields and files). */
export type MultipartRoute = {
  [N in RouteName]: Routes[N]['body'] extends 'multipart' ? N : never;
}[RouteName];
/** The paths of the routes that answer a CSV file. */
export type CsvPath = { [N in RouteName]: Routes[N]['file'] extends 'csv' ? Routes[N]['path'] : never }[RouteName];
