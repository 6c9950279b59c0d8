import multer from '@koa/multer';
import type Router from '@koa/router';
import { AREAS, type Area, badRequest, notFound, type Roles } from '@topline/contract';
import type { Next } from 'koa';
import type { Services } from '../deps';
import type { AppContext, AppState } from '../http/context';
import { refuseIfLimited } from '../http/refusal';
import { handle } from '../http/route';
import { Throttle } from '../services/accounts/throttle';
import { invitationMailCounts, resendInvitation, sendInvitation } from '../services/members/invitations';
import { addMember, deleteMember, editMember, memberList } from '../services/members/members';
import { iconOf, MAX_ICON_BYTES, readIcon } from '../services/plans/icons';
import { importPlanFile } from '../services/plans/planFile';
import {
  createCase,
  createPlan,
  deleteCase,
  deletePlan,
  editCaseYear,
  editModel,
  editPlan,
  renameCase,
  setPlanColors,
  setThemeColor,
} from '../services/plans/plans';

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

/** The uploaded icon in its stored form, or null when the form carries none. */
async function uploadedIcon(ctx: AppContext) {
  const file = (ctx.request as { file?: { buffer: Buffer } }).file;
  return file ? await iconOf(file.buffer) : null;
}

const rolesFrom = (input: Record<Area, Roles[Area]>): Roles =>
  Object.fromEntries(AREAS.map((a) => [a, input[a]])) as Roles;

/** Plans, cases, models, colours and members (working-screens.md section 7). */
export function planRoutes(router: Router<AppState>, services: Services): void {
  const { db } = services;
  const icon = { before: [iconUpload()] };

  handle(
    router,
    services,
    'planCreate',
    async ({ ctx, user, input }) => ({
      data: { business_plan_id: await createPlan(db, user, input, await uploadedIcon(ctx), services.now()) },
    }),
    icon,
  );

  handle(router, services, 'planImport', async ({ user, input }) => ({
    data: { business_plan_id: await importPlanFile(db, user.id, input.plan, services.now()) },
  }));

  handle(
    router,
    services,
    'planEdit',
    async ({ ctx, user, access, input }) => {
      const changes = { name: input.business_plan_name, start_year: input.start_year, start_month: input.start_month };
      await editPlan(db, access, user.id, changes, await uploadedIcon(ctx));
      return { title: 'Success', message: 'business plan information updated' };
    },
    icon,
  );

  handle(router, services, 'planDelete', async ({ user, access }) => {
    await deletePlan(db, access, user.id);
    services.workbooks.drop(access.plan.id);
    return { title: 'Success', message: 'the business plan was deleted' };
  });

  handle(router, services, 'planIcon', async ({ ctx, access, input }) => {
    // A URL with the icon's hash always answers the same bytes (the plan keeps each icon it had): cached for good.
    // Without one it answers the current icon, which the next upload changes.
    const hash = input.v ?? access.plan.icon_hash;
    const icon = hash ? await readIcon(db, access.plan.id, hash) : null;
    if (!icon) throw notFound('the icon');
    ctx.set('Cache-Control', input.v ? 'private, max-age=31536000, immutable' : 'private, no-cache');
    ctx.type = icon.type;
    ctx.body = icon.bytes;
    return undefined;
  });

  handle(router, services, 'themeColor', async ({ access, input }) => {
    await setThemeColor(db, access, input.theme_color);
    return { title: 'Success', message: 'theme colour saved' };
  });

  handle(router, services, 'plColor', async ({ access, input }) => {
    await setPlanColors(db, access, input.colors);
    return { title: 'Success', message: 'colours saved' };
  });

  handle(router, services, 'caseCreate', async ({ access, input }) => ({
    data: { new_case_id: await createCase(db, access, input.case_name, input.case_rate) },
  }));

  handle(router, services, 'caseDelete', async ({ access, input }) => {
    await deleteCase(db, access, input.case_id);
    return { title: 'Success', message: 'the case was deleted' };
  });

  handle(router, services, 'caseRename', async ({ access, input }) => {
    await renameCase(db, access, input.case_id, input.case_name);
    return { title: 'Success', message: 'the case was renamed' };
  });

  handle(router, services, 'caseEdit', async ({ access, input }) => {
    await editCaseYear(db, access, input.case_id, input.year, input.key, input.value);
    return { title: 'Success', message: 'saved' };
  });

  handle(router, services, 'revenueEdit', async ({ access, input }) => {
    await editCaseYear(db, access, input.case_id, input.year, input.key, input.value);
    return { title: 'Success', message: 'saved' };
  });

  handle(router, services, 'modelEdit', async ({ access, input }) => {
    await editModel(db, access, input.case_id, input.model.name, input.model.rates);
    return { title: 'Success', message: 'saved' };
  });

  handle(router, services, 'memberList', async ({ access }) => ({
    data: await memberList(db, access, services.now()),
  }));

  const throttle = new Throttle(db, services.now);
  const invitationOptions = () => ({
    publicUrl: services.config.PUBLIC_URL,
    ttlDays: services.config.INVITATION_TTL_DAYS,
    now: services.now(),
  });

  handle(router, services, 'memberAdd', async ({ ctx, user, access, input }) => {
    const mailLimits = invitationMailCounts(access.plan.id, user.id, input.email);
    await addMember(db, access, user.id, input.email, rolesFrom(input), async (trx) =>
      refuseIfLimited(ctx, await new Throttle(trx, services.now).take(...mailLimits)),
    );
    const invite = { planId: access.plan.id, email: input.email, planName: access.plan.name, inviter: user };
    await sendInvitation(db, services.mailer, invite, invitationOptions());
    return { title: 'Success', message: 'the member was invited' };
  });

  handle(router, services, 'memberEdit', async ({ user, access, input }) => {
    await editMember(db, access, user.id, input.email, rolesFrom(input));
    return { title: 'Success', message: 'the member was updated' };
  });

  handle(router, services, 'memberDelete', async ({ user, access, input }) => {
    await deleteMember(db, access, user.id, input.email);
    return { title: 'Success', message: 'the member was removed' };
  });

  handle(router, services, 'memberResend', async ({ ctx, user, access, input }) => {
    refuseIfLimited(ctx, await throttle.take(...invitationMailCounts(access.plan.id, user.id, input.email)));
    await resendInvitation(db, services.mailer, access, user, input.email, invitationOptions());
    return { title: 'Success', message: 'the invitation was sent again' };
  });
}
