import { z } from 'zod';
import { EMPLOYEES_MAX, emailField, nameField, PASSWORD_MAX, resetPasswordField, signupPasswordField } from './fields';
import { TIERS } from './policy';
import { body, textField } from './wire';

export const signupAuthRequest = body({ email: emailField });
/**
 * The look-up before sign-in answers `email_next` for every address: telling an account, a Google account, a pending
 * invitation and an unknown address apart would tell anyone who has an account. The next step offers both sign-in and
 * sign-up; what a sign-up leads to (a confirmation link, "you already have an account", "a demo is needed first") is
 * said in the e-mail sent to the address, which only its holder reads. The spec's other codes (can_signup,
 * email_signup_user, google_signup_user, cant_signup) are no longer answered.
 */
export const signupAuthStatus = z.enum(['email_next']);
export type SignupAuthStatus = z.infer<typeof signupAuthStatus>;

/** A single-use token of an e-mailed link (sign-up confirmation, invitation). */
export const linkToken = textField('token', 200);
export const signupConfirmRequest = body({ token: linkToken });
export const invitationAcceptRequest = body({ token: linkToken });

export const emailSignupRequest = z
  .strictObject({
    email: emailField,
    password: signupPasswordField,
    password_confirmation: z.string('password_confirmation is required'),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    message: 'password does not match the confirmation',
  });

export const emailSigninRequest = body({
  email: emailField,
  password: textField('password', PASSWORD_MAX, { trim: false }),
});

/**
 * Google sign-in: the ID token that Google Identity Services gives the page, as `credential` (its name there).
 * `access_token` is the field's earlier name, still accepted: it must carry the same ID token.
 */
export const googleAuthRequest = z
  .strictObject({
    credential: z.string().min(1, 'credential is required').max(4096, 'credential is not a Google ID token').optional(),
    access_token: z
      .string()
      .min(1, 'credential is required')
      .max(4096, 'credential is not a Google ID token')
      .optional(),
  })
  .refine((v) => v.credential !== undefined || v.access_token !== undefined, {
    path: ['credential'],
    message: 'credential is required',
  })
  .transform((v) => ({ credential: v.credential ?? v.access_token ?? '' }));

export const passwordApplyRequest = body({ email: emailField });
const resetToken = linkToken;
export const passwordVerifyRequest = body({ token: resetToken });
export const passwordSetRequest = z
  .strictObject({
    token: resetToken,
    password: resetPasswordField,
    password_confirmation: z.string().optional(),
  })
  .refine((v) => v.password_confirmation === undefined || v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    message: 'password does not match the confirmation',
  });

export const profileEditRequest = body({
  name: nameField('name'),
  company_name: nameField('company_name'),
  position: nameField('position', false),
  employees: nameField('employees', false, EMPLOYEES_MAX),
  stage: nameField('stage', false),
});
export type ProfileEdit = z.infer<typeof profileEditRequest>;

export const tierName = z.enum(TIERS);

/** `user` of GET /api/v1/user/me. */
export const userView = z.object({
  email: z.string(),
  name: z.string(),
  picture: z.string().nullable(),
  auth_provider: z.enum(['email', 'google']),
  company: z.object({ company_name: z.string(), position: z.string(), employees: z.string(), stage: z.string() }),
  plan: z.object({
    plan: tierName,
    is_trial: z.boolean(),
    trial_end: z.string().nullable(),
    trial_days_left: z.number().nullable(),
    owned_plan_limit: z.number(),
    can_create_plan: z.boolean(),
  }),
});
export type UserView = z.infer<typeof userView>;

/** Sign-in and sign-up answers carry the token both at the top level and under `data`. */
export const appTokenAnswer = z.object({ app_token: z.string(), data: z.object({ app_token: z.string() }) });
export type AppTokenAnswer = z.infer<typeof appTokenAnswer>;
