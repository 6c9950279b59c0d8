/**
 * @topline/contract: the wire between the web and the API, written once. Requests and answers (zod schemas that
 * also give both sides their types), the route table, the policy of areas, tiers and limits, the field and time
 * rules, the engine edits each write causes, and the one error type. Pure TypeScript: imports only the engine and zod,
 * and of the engine only its light entry points (`@topline/engine/schema`, `/calendar`, `/shapes`) by value, and
 * types from its index: the web's first bundle uses the contract, and the index would bring HyperFormula into it.
 */
export * from './accounts';
export * from './answers';
export * from './billing';
export * from './changeSets';
export * from './comparison';
export * from './edits';
export * from './errors';
export * from './explain';
export * from './fields';
export * from './googleSheets';
export * from './history';
export * from './plans';
export * from './policy';
export * from './route';
export * from './routes';
export * from './screenAnswers';
export * from './screens';
export * from './signs';
export * from './snapshots';
export * from './spreadsheets';
export * from './time';
export * from './todos';
export * from './wire';
