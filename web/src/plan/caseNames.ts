/** Legacy Japanese default case names, shown as the translated "Base case". */
const LEGACY_BASE_NAMES = new Set(['ベースケース', '基本ケース', 'ベース']);
export const isLegacyBaseName = (name: string): boolean => LEGACY_BASE_NAMES.has(name);

/** A case's name as the screens show it. */
export function caseLabel(name: string, t: (key: string) => string): string {
  return isLegacyBaseName(name) ? t('ws.pl.baseCase') : name;
}
