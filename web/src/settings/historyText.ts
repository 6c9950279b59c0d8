/**
 * The words of the plan's history (GET /history): a change's call in the user's language, and an item's kind, place,
 * field and values as the working screens name and show them. Pure functions of the translator, so both languages
 * are checked without a browser.
 */
import type { HistoryItem } from '@topline/contract';
import { formatNumber } from '../format/numbers';
import { TYPED_RULES } from '../format/typed';
import { yearMonths } from '../lib/months';
import { caseLabel } from '../plan/caseNames';

/** The translator and whether it holds a key (the screens' row labels cover most input keys, not all). */
export interface HistoryWords {
  t: (key: string, values?: Record<string, string | number>) => string;
  has: (key: string) => boolean;
}

/**
 * The calls that change a plan, by the action the API records (its path, or a name for the calls made outside a
 * route), to their key under `history.actions`.
 */
const ACTIONS: Readonly<Record<string, string>> = {
  'plan.create': 'planCreate',
  '/business-plan/create': 'planCreate',
  '/business-plan/import': 'planImport',
  '/business-plan/edit': 'planEdit',
  '/business-plan/theme-color': 'themeColor',
  '/business-plan/xlsx/import': 'xlsxImport',
  '/spreadsheet/import': 'sheetsImport',
  '/pl/color': 'colors',
  '/case/create': 'caseCreate',
  '/case/delete': 'caseDelete',
  '/casename/edit': 'caseRename',
  '/case/edit': 'caseEdit',
  '/revenue/edit': 'revenueEdit',
  '/model/edit': 'modelEdit',
  '/authority/add': 'memberAdd',
  '/authority/edit': 'memberEdit',
  '/authority/delete': 'memberDelete',
  '/home/edit': 'dailyEdit',
  '/pl/monthly/edit': 'actualsEdit',
  '/pl/monthly/reverse': 'monthReverse',
  '/pl/monthly/cashflow/edit': 'cashflowEdit',
  '/pl/monthly/comment/edit': 'commentEdit',
  '/pl/monthly/adjust/edit': 'revisionEdit',
  '/cost/edit': 'costEdit',
  '/cost/delete': 'costDelete',
  'history.restore': 'restore',
  '/history/restore': 'restore',
  unattributed: 'unattributed',
};

/**
 * A change's call in words; a call this list does not know is shown as the API names it, and the call of a change
 * the user may see nothing of (null) is not named.
 */
export function actionText(action: string | null, words: HistoryWords): string {
  if (action === null) return words.t('history.actions.hidden');
  const key = ACTIONS[action];
  return key ? words.t(`history.actions.${key}`) : action;
}

/** A monthly value's layer and a chart colour set (`detail`) in words; other details as they are. */
function detailText(item: HistoryItem, words: HistoryWords): string | null {
  if (item.detail === null || item.detail === '') return null;
  if (item.kind === 'monthly' && words.has(`history.layers.${item.detail}`)) {
    return words.t(`history.layers.${item.detail}`);
  }
  // The colour sets are stored from 0 and shown from 1, as the P&L's colour editor shows them.
  if (item.kind === 'color' && /^\d+$/.test(item.detail))
    return words.t('ws.pl.colorSet', { n: Number(item.detail) + 1 });
  return item.detail;
}

/**
 * The field an item changed, named as the screens name it: a member's area, a chart colour, the history's own names
 * (case name, rate, plan settings), a row or assumption of the screens; any other key as it is.
 */
export function keyText(item: HistoryItem, words: HistoryWords): string {
  const { key } = item;
  const candidates = [
    item.kind === 'member' ? `ws.areas.${key}` : null,
    item.kind === 'color' ? `ws.pl.colorKey.${key}` : null,
    `history.keys.${key}`,
    `ws.rows.${key}`,
  ];
  for (const candidate of candidates) if (candidate && words.has(candidate)) return words.t(candidate);
  return key;
}

/** Where an item sits: the case, the plan year and month (with its calendar month), the layer, date or title. */
export function placeText(
  item: HistoryItem,
  plan: { start_year: number; start_month: number },
  words: HistoryWords,
): string {
  const parts: string[] = [];
  if (item.case_name !== null) parts.push(caseLabel(item.case_name, words.t));
  if (item.year !== null && item.month !== null) {
    const calendar = yearMonths(plan.start_year, plan.start_month, item.year)[item.month - 1] ?? '';
    parts.push(words.t('history.yearMonth', { year: item.year, month: item.month, calendar }));
  } else if (item.year !== null) {
    parts.push(words.t('ws.common.yearN', { n: item.year }));
  }
  const detail = detailText(item, words);
  if (detail !== null) parts.push(detail);
  return parts.join(' · ');
}

/** The fewest decimals (at most `most`) that show a number exactly. */
function decimalsOf(value: number, most: number): number {
  for (let decimals = 0; decimals < most; decimals += 1) {
    if (Number(value.toFixed(decimals)) === value) return decimals;
  }
  return most;
}

/**
 * A recorded value as the screens show it: percentages of the keys typed in percent, numbers with separators and
 * every decimal they have, a member's role and a growth model in words, yes/no, and a dash for "none" (the value was
 * not set, or the item did not exist).
 */
export function valueText(
  value: HistoryItem['old'],
  key: string,
  words: HistoryWords,
  kind?: HistoryItem['kind'],
): string {
  if (value === null) return '—';
  if (typeof value === 'boolean') return words.t(value ? 'history.yes' : 'history.no');
  // An icon is recorded by the hash of its bytes, which says nothing to a reader.
  if (key === 'icon_hash') return words.t('history.image');
  if (typeof value === 'string') {
    const named = kind === 'member' ? `ws.roles.${value}` : key === 'model_name' ? `ws.models.${value}` : null;
    return named && words.has(named) ? words.t(named) : value;
  }
  if (TYPED_RULES[key]?.percent) {
    // Rounds away the float residue of the product (0.035 * 100 = 3.5000000000000004).
    const percent = Number((value * 100).toFixed(8));
    return `${formatNumber(percent, decimalsOf(percent, 6))}%`;
  }
  return formatNumber(value, decimalsOf(value, 6));
}

/** When a change was committed, in the browser's time zone: year/month/day hour:minute, as the app writes dates. */
export function changeTime(at: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}/${two(date.getMonth() + 1)}/${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
