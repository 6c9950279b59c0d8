/**
 * The hand-off around Google's consent page: the spreadsheet modal stores the plan before the browser leaves, and the
 * callback page reads it back and returns to that plan's monthly P&L with the connection's result. Both sides take
 * these from here.
 */

/** Where the plan being connected waits (localStorage) while the browser is on Google's consent page. */
export const DRIVE_PLAN_KEY = 'topline.drive_plan_id';

/** What the callback page hands the monthly P&L after Google's consent page (`navigate` state). */
export interface SpreadsheetReturn {
  spreadsheet: { connected: true } | { connected: false; message: string };
}
