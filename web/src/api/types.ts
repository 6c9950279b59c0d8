/** Wire shapes of the calls in spec/product-and-account.md section 7, keeping the spec's field names. */

export type Tier = 'free' | 'basic' | 'team';

export type AreaKey =
  | 'pl'
  | 'monthly_pl'
  | 'kpi'
  | 'sales_detail'
  | 'cogs'
  | 'sm'
  | 'rd'
  | 'ga'
  | 'dashboard'
  | 'actuals';
export type AreaRole = 'no_access' | 'can_view' | 'can_edit';

export interface UserPlan {
  plan: string;
  is_trial: boolean;
  trial_end: string | null;
  /** Computed by the server when it answers them; the web falls back to its own mirror of the rules. */
  trial_days_left?: number | null;
  owned_plan_limit?: number;
  can_create_plan?: boolean;
}

export interface Company {
  company_name: string;
  position: string;
  employees: string;
  stage: string;
}

export interface User {
  email: string;
  name: string | null;
  picture: string | null;
  company: Company | null;
  plan: UserPlan;
}

export interface BusinessPlanItem {
  business_plan_id: number | string;
  business_plan_name: string;
  business_plan_icon: string | null;
  is_owner: boolean;
  template: string;
  start_year: number;
  start_month: number;
  currency?: string;
  theme_color?: string;
  role?: Partial<Record<AreaKey, AreaRole>> | null;
  /** Areas the owner's tier locks, as the server decides them. */
  locked?: string[];
}

export interface Me {
  user: User;
  business_plans: BusinessPlanItem[];
}

export interface Invoice {
  url: string;
  created_at: string;
  price: number | string;
}

export interface Billing {
  plan: { status: string | null; current_period_end: string | null } | null;
  last4: string | null;
  exp_year: number | null;
  exp_month: number | null;
  invoice_list: Invoice[];
}

export type SignupStatusCode = 'can_signup' | 'email_signup_user' | 'google_signup_user' | 'cant_signup';

export interface ProfilePayload {
  name: string;
  company_name: string;
  position: string;
  employees: string;
  stage: string;
}

export interface PlanCreatePayload extends ProfilePayload {
  arr: number;
  period: number;
  arpa: number;
  template: 'saas' | 'selfserve';
  start_year: number;
  start_month: number;
  business_plan_name: string;
  currency: 'JPY' | 'USD';
  model_name?: string;
  model_rate?: number[];
}
