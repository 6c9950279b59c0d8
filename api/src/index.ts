/**
 * @topline/api: the Koa app. The wire contract lives in @topline/contract; the server entry points are `start.ts`
 * (npm start) and `admin.ts` (npm run admin).
 */
export { createApp } from './app';
export type { Config } from './config';
export type { AppDeps } from './deps';
