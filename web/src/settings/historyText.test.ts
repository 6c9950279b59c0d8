import type { HistoryItem } from '@topline/contract';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../i18n/en';
import ja from '../i18n/ja';
import screensEn from '../i18n/screens.en';
import screensJa from '../i18n/screens.ja';
import { actionText, changeTime, type HistoryWords, keyText, placeText, valueText } from './historyText';

const plan = { start_year: 2026, start_month: 4 };
const item = (fields: Partial<HistoryItem>): HistoryItem => ({
  kind: 'assumption',
  op: 'change',
  key: 'arr',
  case_id: 1,
  case_name: 'Base',
  year: null,
  month: null,
  detail: null,
  old: null,
  new: null,
  hidden: false,
  ...fields,
});

let english: HistoryWords;
let japanese: HistoryWords;

beforeAll(async () => {
  const instance = i18next.createInstance();
  await instance.init({
    resources: { en: { translation: en }, ja: { translation: ja } },
    lng: 'en',
    interpolation: { escapeValue: false },
  });
  instance.addResourceBundle('en', 'translation', screensEn, true, false);
  instance.addResourceBundle('ja', 'translation', screensJa, true, false);
  const words = (lng: string): HistoryWords => {
    const t = instance.getFixedT(lng);
    return { t: (key, values) => t(key, values), has: (key) => instance.exists(key, { lng }) };
  };
  english = words('en');
  japanese = words('ja');
});

describe('history words', () => {
  it('names the calls in both languages and shows an unknown call as the API names it', () => {
    expect(actionText('/case/edit', english)).toBe('Edited an assumption');
    expect(actionText('/case/edit', japanese)).toBe('前提条件を編集');
    expect(actionText('history.restore', english)).toBe('Restored an earlier point');
    expect(actionText('/something/new', english)).toBe('/something/new');
  });

  it('names a key as the screens name its row, with the history’s own names and the raw key otherwise', () => {
    expect(keyText(item({ key: 'churn_rate' }), english)).toBe('Churn rate');
    expect(keyText(item({ key: 'churn_rate' }), japanese)).not.toBe('churn_rate');
    expect(keyText(item({ kind: 'case', key: 'name' }), english)).toBe('Name');
    expect(keyText(item({ kind: 'member', key: 'sm' }), english)).toBe('S&M');
    expect(keyText(item({ kind: 'plan', key: 'mystery_column' }), english)).toBe('mystery_column');
  });

  it('places an item by case, plan year and month with its calendar month, and layer', () => {
    expect(placeText(item({ year: 2 }), plan, english)).toBe('Base · Y2');
    // Month 10 of year 2 of a plan starting 2026/04 is 2028/01.
    expect(placeText(item({ kind: 'monthly', year: 2, month: 10, detail: 'actual' }), plan, english)).toBe(
      'Base · Y2 M10 (2028/01) · Actual',
    );
    expect(placeText(item({ kind: 'daily', case_name: null, detail: '2026-05-03' }), plan, english)).toBe('2026-05-03');
    expect(placeText(item({ kind: 'color', case_name: null, detail: '0' }), plan, english)).toBe('Set 1');
  });

  it('shows values as typed: percentages in percent with every decimal, amounts with separators, none as a dash', () => {
    expect(valueText(0.035, 'churn_rate', english)).toBe('3.5%');
    expect(valueText(0.0125, 'churn_rate', english)).toBe('1.25%');
    expect(valueText(123456789, 'arr', english)).toBe('123,456,789');
    expect(valueText(1.5, 'case_rate', english)).toBe('1.5');
    expect(valueText(-2000, 'other', english)).toBe('-2,000');
    expect(valueText(null, 'arr', english)).toBe('—');
    expect(valueText('Upside', 'name', english)).toBe('Upside');
    expect(valueText(true, 'flag', japanese)).toBe('はい');
    expect(valueText('can_edit', 'sm', english, 'member')).toBe('Can edit');
    expect(valueText('t2d3', 'model_name', english, 'case')).toBe('T2D3');
    expect(valueText('ab'.repeat(32), 'icon_hash', english, 'plan')).toBe('an image');
    expect(keyText(item({ kind: 'plan', key: 'icon_hash' }), japanese)).toBe('アイコン');
  });

  it('writes the time of a change in local year/month/day hour:minute', () => {
    const at = new Date(2026, 10, 3, 9, 5).toISOString();
    expect(changeTime(at)).toBe('2026/11/03 09:05');
  });
});
