import multer from '@koa/multer';
import type Router from '@koa/router';
import type { Next } from 'koa';
import type { Services } from '../app';
import { memberListAnswer } from '../contract/answers';
import {
  caseCreateRequest,
  caseEditRequest,
  caseRenameRequest,
  caseScoped,
  memberDeleteRequest,
  memberRequest,
  modelEditRequest,
  planCreateRequest,
  planEditRequest,
  planScoped,
  plColorRequest,
  revenueEditRequest,
  themeColorRequest,
  YEAR_KEY_AREAS,
  type YearKey,
} from '../contract/plans';
import { badRequest, tierLock } from '../errors';
import { requireToken, requireUser } from '../http/auth';
import { type AppContext, type AppState, currentUser } from '../http/context';
import { parseInput } from '../http/validate';
import {
  AREAS,
  type Area,
  loadSignedInFacts,
  type PlanAccess,
  planAccess,
  type Roles,
  requireOwner,
  requireScope,
  signedInAccess,
} from '../services/access';
import { addMember, deleteMember, editMember, memberList } from '../services/members';
import { importPlanFile } from '../services/planFile';
import {
  canCreatePlan,
  checkIcon,
  createCase,
  createPlan,
  deleteCase,
  deletePlan,
  editCaseYear,
  editModel,
  editPlan,
  MAX_ICON_BYTES,
  renameCase,
  setPlanColors,
  setThemeColor,
} from '../services/plans';

/** Loads the plan for the signed-in caller (404 for anyone who may not see it). */
export async function planFor(services: Services, ctx: AppContext, planId: number): Promise<PlanAccess> {
  let access: PlanAccess;
  const claims = ctx.state.claims;
  if (!ctx.state.user && claims) {
    const loaded = await services.accessCache.get(claims.userId, planId, () =>
      loadSignedInFacts(services.db, claims.userId, planId),
    );
    const signedIn = signedInAccess(loaded, claims, services.now());
    ctx.state.user = signedIn.user;
    access = signedIn.access;
  } else access = await planAccess(services.db, currentUser(ctx), planId, services.now());
  access.changed = (version, edits) => services.workbooks.advance(planId, version, edits);
  return access;
}

/** Multipart with an optional `business_plan_icon` file; over-large files become a 400 on that field. */
function iconUpload() {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_ICON_BYTES, files: 1, fields: 40 },
  });
  const single = upload.single('business_plan_icon');
  return async (ctx: AppContext, next: Next) => {
    try {
      await single(ctx, async () => {});
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'LIMIT_FILE_SIZE' || code === 'LIMIT_UNEXPECTED_FILE' || code === 'LIMIT_FILE_COUNT') {
        throw badRequest({ business_plan_icon: 'the icon must be a JPEG or PNG of at most 2,000,000 bytes' });
      }
      throw badRequest({ body: 'the form could not be read' });
    }
    await next();
  };
}

function uploadedIcon(ctx: AppContext) {
  const file = (ctx.request as { file?: { buffer: Buffer } }).file;
  return file ? checkIcon(file.buffer) : null;
}

const rolesFrom = (input: Record<Area, Roles[Area]>): Roles =>
  Object.fromEntries(AREAS.map((a) => [a, input[a]])) as Roles;

/** Plans, cases, models, colours and members (working-screens.md section 7). */
export function planRoutes(router: Router<AppState>, services: Services): void {
  const { db } = services;
  const auth = requireUser(services);
  // Plan-scoped calls verify the token here and load the user with the plan in one query.
  const token = requireToken(services);

  router.post('/business-plan/create', auth, iconUpload(), async (ctx) => {
    const input = parseInput(planCreateRequest(services.now()), ctx.request.body);
    const icon = uploadedIcon(ctx);
    const planId = await createPlan(db, currentUser(ctx), input, icon, services.now());
    ctx.status = 201;
    ctx.body = { data: { business_plan_id: planId } };
  });

  // A plan file (MODEL.md section 9), e.g. one downloaded from /business-plan/file, becomes a new plan of the caller.
  router.post('/business-plan/import', auth, async (ctx) => {
    const user = currentUser(ctx);
    if (!(await canCreatePlan(db, user.id, services.now()))) throw tierLock('another business plan');
    const body = ctx.request.body as { plan?: unknown } | undefined;
    const planId = await importPlanFile(db, user.id, body?.plan ?? body);
    ctx.status = 201;
    ctx.body = { data: { business_plan_id: planId } };
  });

  router.post('/business-plan/edit', token, iconUpload(), async (ctx) => {
    const input = parseInput(planEditRequest(services.now()), ctx.request.body);
    const icon = uploadedIcon(ctx);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireOwner(access);
    const changes = { name: input.business_plan_name, start_year: input.start_year, start_month: input.start_month };
    await editPlan(db, access, currentUser(ctx).id, changes, icon);
    ctx.body = { title: 'Success', message: 'business plan information updated' };
  });

  router.post('/business-plan/delete', token, async (ctx) => {
    const input = parseInput(planScoped, ctx.request.body);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireOwner(access);
    await deletePlan(db, access, currentUser(ctx).id);
    services.workbooks.drop(access.plan.id);
    ctx.body = { title: 'Success', message: 'the business plan was deleted' };
  });

  router.post('/business-plan/theme-color', token, async (ctx) => {
    const input = parseInput(themeColorRequest, ctx.request.body);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireOwner(access);
    await setThemeColor(db, access, input.theme_color);
    ctx.body = { title: 'Success', message: 'theme colour saved' };
  });

  router.post('/pl/color', token, async (ctx) => {
    const input = parseInput(plColorRequest, ctx.request.body);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireScope(access, 'pl', 'write');
    await setPlanColors(db, access, input.colors);
    ctx.status = 201;
    ctx.body = { title: 'Success', message: 'colours saved' };
  });

  router.post('/case/create', token, async (ctx) => {
    const input = parseInput(caseCreateRequest, ctx.request.body);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireScope(access, 'pl', 'write');
    const caseId = await createCase(db, access, input.case_name, input.case_rate);
    ctx.body = { data: { new_case_id: caseId } };
  });

  router.post('/case/delete', token, async (ctx) => {
    const input = parseInput(caseScoped, ctx.request.body);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireScope(access, 'pl', 'write');
    await deleteCase(db, access, input.case_id);
    ctx.body = { title: 'Success', message: 'the case was deleted' };
  });

  router.post('/casename/edit', token, async (ctx) => {
    const input = parseInput(caseRenameRequest, ctx.request.body);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireScope(access, 'pl', 'write');
    await renameCase(db, access, input.case_id, input.case_name);
    ctx.body = { title: 'Success', message: 'the case was renamed' };
  });

  router.post('/case/edit', token, async (ctx) => {
    const input = parseInput(caseEditRequest, ctx.request.body);
    const access = await planFor(services, ctx, input.business_plan_id);
    const area: Area = input.key === 'case_rate' ? 'pl' : YEAR_KEY_AREAS[input.key as YearKey];
    requireScope(access, area, 'write');
    await editCaseYear(db, access, input.case_id, input.year, input.key, input.value);
    ctx.body = { title: 'Success', message: 'saved' };
  });

  router.post('/revenue/edit', token, async (ctx) => {
    const input = parseInput(revenueEditRequest, ctx.request.body);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireScope(access, 'sales_detail', 'write');
    await editCaseYear(db, access, input.case_id, input.year, input.key, input.value);
    ctx.body = { title: 'Success', message: 'saved' };
  });

  router.post('/model/edit', token, async (ctx) => {
    const input = parseInput(modelEditRequest, ctx.request.body);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireScope(access, 'pl', 'write');
    await editModel(db, access, input.case_id, input.model.name, input.model.rates);
    ctx.body = { title: 'Success', message: 'saved' };
  });

  router.get('/authority/retrieve', token, async (ctx) => {
    const input = parseInput(planScoped, ctx.query);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireOwner(access);
    ctx.body = memberListAnswer.parse({ data: await memberList(db, access) });
  });

  router.post('/authority/add', token, async (ctx) => {
    const input = parseInput(memberRequest, ctx.request.body);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireOwner(access);
    await addMember(db, access, currentUser(ctx).id, input.email, rolesFrom(input));
    ctx.body = { title: 'Success', message: 'the member was invited' };
  });

  router.post('/authority/edit', token, async (ctx) => {
    const input = parseInput(memberRequest, ctx.request.body);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireOwner(access);
    await editMember(db, access, currentUser(ctx).id, input.email, rolesFrom(input));
    ctx.body = { title: 'Success', message: 'the member was updated' };
  });

  router.post('/authority/delete', token, async (ctx) => {
    const input = parseInput(memberDeleteRequest, ctx.request.body);
    const access = await planFor(services, ctx, input.business_plan_id);
    requireOwner(access);
    await deleteMember(db, access, currentUser(ctx).id, input.email);
    ctx.body = { title: 'Success', message: 'the member was removed' };
  });
}
