/**
 * @topline/api: the Koa app and the HTTP contract. The web imports only the types from here (`import type`);
 * the server entry points are `start.ts` (npm start) and `admin.ts` (npm run admin).
 */
export { type AppDeps, createApp } from './app';
export type { Config } from './config';
export type {
  AppTokenAnswer,
  ProfileEdit,
  SignupAuthStatus,
  UserView,
} from './contract/accounts';
export type { HomeAnswer, MeAnswer, MemberListAnswer, PerEmployeeAnswer } from './contract/answers';
export type { ColorSet, PlanCreate, YearKey } from './contract/plans';
export type { ActualKey, CashKey, CostItemFields } from './contract/screens';
export type { ErrorBody, RefusalReason } from './errors';
export type { Area, Level, Roles } from './services/access';
export type { MemberView } from './services/members';
export type { PlanListItem } from './services/profile';
export type { Tier, TierInfo } from './services/users';
