/**
 * Registers a call of the contract's route table: its method and path, the sign-in it needs, the request parsed
 * with its schema, the plan loaded and the caller's role checked for plan-scoped calls, and the answer shaped by its
 * answer schema. Handlers hold no rules of the wire; services hold the SQL and the permissions.
 */
import type Router from '@koa/router';
import {
  type AnswerOf,
  AREAS,
  hasEdit,
  IDEMPOTENCY_KEY_HEADER,
  type InputOf,
  idempotencyKeyOf,
  type Needs,
  noPermission,
  PLAN_CHANGES_FIELD,
  PLAN_VERSION_HEADER,
  type PlanChange,
  type RouteName,
  requestSchema,
  routes,
  type Scope,
} from '@topline/contract';
import type { Middleware } from 'koa';
import type { Services } from '../deps';
import { type PlanAccess, requireOwner, requireScope, requireWritable } from '../services/access/access';
import type { UserRow } from '../services/accounts/users';
import { changeActor } from '../services/plans/changes';
import {
  answered,
  type KeyedWrite,
  KeyTaken,
  keyedWrite,
  recordAnswer,
  runKeyed,
  type StoredAnswer,
} from '../services/requests/idempotency';
import { requireToken, requireUser } from './auth';
import { type AppContext, type AppState, currentUser } from './context';
import { planFor } from './plan';
import { parseInput, parseQuery } from './validate';

export interface Call<N extends RouteName> {
  ctx: AppContext;
  input: InputOf<N>;
  /** The signed-in caller (every call but the public ones). */
  user: UserRow;
}

export interface PlanCall<N extends RouteName> extends Call<N> {
  /** The plan of `business_plan_id`, with the caller's roles, already checked against what the route needs. */
  access: PlanAccess;
}

/**
 * What a handler answers: the answer (shaped by the route's schema before it is sent), or `undefined` when the
 * handler has set the body itself (a file, a cached answer).
 */
type Result<N extends RouteName> = Promise<AnswerOf<N> | undefined>;

type PlanNeeds = { kind: 'owner' } | { kind: 'every_area' } | { kind: 'editor' } | { kind: 'scope' };
type IsPlanScoped<N extends RouteName> = (typeof routes)[N]['needs'] extends PlanNeeds ? true : false;

export type Handler<N extends RouteName> = (call: IsPlanScoped<N> extends true ? PlanCall<N> : Call<N>) => Result<N>;

export interface RouteOptions {
  /** Middleware run after sign-in and before the request is parsed (a multipart reader). */
  before?: Middleware<AppState>[];
}

/** Adds one call of the route table to the router. */
export function handle<N extends RouteName>(
  router: Router<AppState>,
  services: Services,
  name: N,
  handler: Handler<N>,
  options: RouteOptions = {},
): void {
  const route = routes[name];
  const needs = route.needs as Needs<InputOf<N>>;
  const planScoped =
    needs.kind === 'owner' || needs.kind === 'every_area' || needs.kind === 'editor' || needs.kind === 'scope';
  const auth = needs.kind === 'public' ? [] : planScoped ? [requireToken(services)] : [requireUser(services)];
  const operation = route.method === 'GET' ? 'read' : 'write';
  // Any write but one to an area's inputs may change who may do what (accounts, tiers, members, plans made or
  // deleted): it drops the access decisions this process keeps once it has written, before it answers. Other
  // processes hear of it from the database (`AccessCache`).
  const changesAccess = operation === 'write' && needs.kind !== 'scope' && needs.kind !== 'editor';

  const run = async (ctx: AppContext) => {
    const schema = requestSchema(name, services.now());
    const input = (
      route.method === 'GET'
        ? parseQuery(schema, ctx.querystring, () => ctx.query)
        : parseInput(schema, ctx.request.body)
    ) as InputOf<N>;
    let call: Call<N> | PlanCall<N>;
    if (planScoped) {
      const planId = (input as { business_plan_id: number }).business_plan_id;
      const access = await planFor(services, ctx, planId);
      check(access, needs, input, operation);
      call = { ctx, input, user: currentUser(ctx), access };
    } else {
      call = { ctx, input, user: needs.kind === 'public' ? (undefined as unknown as UserRow) : currentUser(ctx) };
    }
    // A signed-in caller's write under an Idempotency-Key is applied once: a retry is answered what the first try was,
    // once the caller's rights have been checked again above.
    const key = operation === 'write' && call.user ? idempotencyKeyOf(ctx.get(IDEMPOTENCY_KEY_HEADER)) : null;
    const keyed = key === null ? null : keyedWrite(call.user.id, key, name, input);
    if (keyed) {
      const earlier = await answered(services.db, keyed);
      if (earlier) return replay(ctx, earlier);
    }
    ctx.status = route.status ?? 200;
    // What the handler writes to a plan's inputs is recorded as a change by this caller, through this route.
    const actor = { userId: call.user?.id ?? null, action: route.path };
    const runHandler = () =>
      changeActor.run(actor, () => (handler as (call: Call<N> | PlanCall<N>) => Result<N>)(call));
    let answer: AnswerOf<N> | undefined;
    try {
      answer = keyed ? await runKeyed(keyed, runHandler) : await runHandler();
    } catch (error) {
      if (keyed && error instanceof KeyTaken) {
        const earlier = await answered(services.db, keyed);
        if (earlier) return replay(ctx, earlier);
      }
      throw error;
    } finally {
      if (changesAccess) services.accessCache.invalidate();
    }
    if (answer !== undefined) ctx.body = withPlanChanges(route.answer.parse(answer), ctx.state.planChanges);
    if (keyed) await keep(services, ctx, keyed);
  };

  const method = route.method === 'GET' ? 'get' : 'post';
  router[method](route.path, ...auth, ...(options.before ?? []), run);
}

/**
 * A write's answer with the change sets it committed (`plan_changes`, the contract's `PLAN_CHANGES_FIELD`), beside the
 * route's own fields, so that the browser's workbook follows the write as the API's does. A write whose change no
 * change set says (a restore that moves a case among the others, or takes a revision back: `changesBetween`) carries
 * none, and the browser reads the plan file again.
 */
function withPlanChanges(answer: unknown, changes: PlanChange[] | null | undefined): unknown {
  if (!changes || typeof answer !== 'object' || answer === null || Array.isArray(answer)) return answer;
  return { ...answer, [PLAN_CHANGES_FIELD]: changes };
}

/** Keeps a keyed write's answer for its retries: its JSON body (not a file) and the plan version it made. */
async function keep(services: Services, ctx: AppContext, keyed: KeyedWrite): Promise<void> {
  const body: unknown = ctx.body;
  const json =
    body === null || body === undefined || typeof body === 'string' || (isPlainObject(body) && !Buffer.isBuffer(body));
  const headers: Record<string, string> = {};
  const version = ctx.response.get(PLAN_VERSION_HEADER);
  if (version) headers[PLAN_VERSION_HEADER] = version;
  await recordAnswer(services.db, keyed, { status: ctx.status, body: json ? (body ?? null) : undefined, headers });
}

const isPlainObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { pipe?: unknown }).pipe !== 'function';

/** Answers a retry of a keyed write with what its first try answered. */
function replay(ctx: AppContext, stored: StoredAnswer): void {
  for (const [header, value] of Object.entries(stored.headers)) ctx.set(header, value);
  ctx.set('Idempotent-Replayed', 'true');
  ctx.status = stored.status;
  ctx.body = stored.body;
}

/** Checks what a plan-scoped route needs of the caller. */
function check<Input>(access: PlanAccess, needs: Needs<Input>, input: Input, operation: 'read' | 'write'): void {
  if (needs.kind === 'owner') requireOwner(access);
  else if (needs.kind === 'every_area') {
    // The plan file holds every area's inputs: the owner's, or a member's who may see every area.
    if (!access.isOwner && AREAS.some((area) => access.roles[area] === 'no_access')) throw noPermission();
  } else if (needs.kind === 'editor') {
    // Home is every member's; changing what all members share there needs can_edit somewhere.
    requireScope(access, 'home', 'read');
    if (!access.isOwner && !hasEdit(access.roles)) throw noPermission();
    requireWritable(access);
  } else if (needs.kind === 'scope') {
    const scope: Scope = typeof needs.scope === 'function' ? needs.scope(input) : needs.scope;
    requireScope(access, scope, operation);
  }
}
