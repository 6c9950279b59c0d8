import { z } from 'zod';

/** ASCII letters, digits and symbols (product-and-account.md section 5); the reset form also admits the yen sign. */
const PASSWORD_CHARS = /^[\x21-\x7e¥]+$/;

export const emailField = z.email('enter in email format').max(254);

export const passwordField = z
  .string('password is required')
  .min(8, 'password must be at least 8 characters')
  .max(100, 'password may not be greater than 100 characters')
  .regex(PASSWORD_CHARS, 'password must be half-width alphanumeric characters or symbols');

export const signupAuthRequest = z.object({ email: emailField });
export const signupAuthStatus = z.enum(['can_signup', 'email_signup_user', 'google_signup_user', 'cant_signup']);
export type SignupAuthStatus = z.infer<typeof signupAuthStatus>;

export const emailSignupRequest = z
  .object({
    email: emailField,
    password: passwordField,
    password_confirmation: z.string('password_confirmation is required'),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    message: 'password does not match the confirmation',
  });

export const emailSigninRequest = z.object({
  email: emailField,
  password: z.string('password is required').min(1, 'password is required').max(100),
});

export const googleAuthRequest = z.object({ access_token: z.string().min(1).max(4096) });

export const passwordApplyRequest = z.object({ email: emailField });
export const passwordVerifyRequest = z.object({ token: z.string().min(1).max(200) });
export const passwordSetRequest = z
  .object({
    token: z.string().min(1).max(200),
    password: passwordField,
    password_confirmation: z.string().optional(),
  })
  .refine((v) => v.password_confirmation === undefined || v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    message: 'password does not match the confirmation',
  });

const profileText = (field: string) =>
  z.string(`${field} is required`).trim().max(50, `${field} may not be greater than 50 characters`);

export const profileEditRequest = z.object({
  name: profileText('name').min(1, 'name is required'),
  company_name: profileText('company_name').min(1, 'company_name is required'),
  position: profileText('position'),
  employees: profileText('employees'),
  stage: profileText('stage'),
});
export type ProfileEdit = z.infer<typeof profileEditRequest>;

export const tierName = z.enum(['free', 'basic', 'team']);

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
