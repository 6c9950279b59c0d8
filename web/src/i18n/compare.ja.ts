import type compareEn from './compare.en';

/** P&Lのケース比較と、予算修正パネルのプレビューの日本語メッセージ(issue 40)。 */
const compare: typeof compareEn = {
  compare: {
    measure: 'グラフの項目',
    measures: { arr: 'ARR', revenue: '売上高', operating_pl: '営業利益', ending_cash: '期末現預金' },
    chartTitle: 'ケース別の{{measure}}(百万)',
    table: 'ケース比較',
    item: '項目',
    case: 'ケース',
    difference: '{{base}}との差額',
    differenceRate: '{{base}}との差異率(%)',
    casesCash: 'ケース比較: 期末現預金とランウェイ',
    runway: 'ランウェイ',
    runwayMonths: '{{months}}か月',
    noCashOut: '計画期間内に資金ショートなし',
    csv: '比較CSV',
    xlsx: '比較XLSX',
    xlsxHint: '全ケースを数式付きで、差額を各ケースのシートへの数式で示す比較シート付き',
  },
  budget: {
    label: '予算',
    live: '現在の計画',
    snapshot: 'スナップショット: {{name}}',
    note: '予算: スナップショット「{{name}}」(ケース「{{case}}」)。各月・四半期・年度とも、実績と現在の見通しをスナップショットの計画値と比べています。',
    snapshotColumn: 'スナップショット「{{name}}」',
    snapshotCase: '比較対象',
    noCompare: 'ケースのみ',
  },
  revise: {
    preview: '保存する前に、各パターンが{{year}}年目をどう変えるか',
    fromMonth: '最新の実績月 {{month}} から',
    pattern: 'パターン',
    current: '現在',
    yearEndMrr: '期末MRR',
    yearEndArr: '期末ARR',
    remainingRevenue: '残りの月の売上高',
    revenueChange: 'その売上高の増減',
    explain: {
      upward: '上方修正は年度のARR目標を保ちます。MRRは最新の実績月から計画の期末MRRまで直線で推移します。',
      downward:
        '下方修正は最新月の達成率を引き継ぎます。残りの各月は計画値に最新実績MRRと同月計画の比を掛けた値になり、計画を上回っていれば上がり、下回っていれば下がります。',
    },
    revisedNow: '現在の修正: {{pattern}}',
    confirmTitle: '予算を修正しますか?',
    confirm:
      '{{year}}年目を{{pattern}}で修正します。期末MRR {{mrr}}、期末ARR {{arr}}、残りの月の売上高 {{change}}。実績は入力どおり残ります。',
    unavailable: 'この年度は、実績のある月があり、その後に年度の月が残っているときに修正できます。',
  },
};

export default compare;
