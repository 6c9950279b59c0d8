/** English messages of the P&L's case comparison and of the revise panel's preview (issue 40). */
const compare = {
  compare: {
    measure: 'Chart measure',
    measures: { arr: 'ARR', revenue: 'Revenue', operating_pl: 'Operating income', ending_cash: 'Ending cash' },
    chartTitle: '{{measure}} by case (millions)',
    table: 'Cases side by side',
    item: 'Item',
    case: 'Case',
    difference: 'Difference from {{base}}',
    differenceRate: 'Difference from {{base}} (%)',
    casesCash: 'Cases side by side: ending cash and runway',
    runway: 'Runway',
    runwayMonths: '{{months}} months',
    noCashOut: 'No cash-out within the plan',
    csv: 'Comparison CSV',
    xlsx: 'Comparison XLSX',
    xlsxHint: 'Every case with live formulas, and a Comparison sheet whose differences are formulas over the cases',
  },
  budget: {
    label: 'Budget',
    live: 'The live plan',
    snapshot: 'Snapshot: {{name}}',
    note: 'Budget: snapshot “{{name}}” (its case “{{case}}”). Every month, quarter and the year compare the actuals and the live forecast with the snapshot’s estimate.',
    snapshotColumn: 'Snapshot “{{name}}”',
    snapshotCase: 'Compare with',
    noCompare: 'Cases only',
  },
  revise: {
    preview: 'What each pattern does to year {{year}}, before anything is saved',
    fromMonth: 'From the latest actual month, {{month}}',
    pattern: 'Pattern',
    current: 'As it stands',
    yearEndMrr: 'Year-end MRR',
    yearEndArr: 'Year-end ARR',
    remainingRevenue: 'Revenue of the remaining months',
    revenueChange: 'Change in that revenue',
    explain: {
      upward:
        "Upward keeps the year's ARR goal: MRR moves in a straight line from the latest actual month to the plan's year-end MRR.",
      downward:
        "Downward carries the latest month forward: every remaining month is its plan times the latest actual MRR over that month's plan, so a plan ahead of budget rises and one behind falls.",
    },
    revisedNow: 'Revised now: {{pattern}}',
    confirmTitle: 'Revise the budget?',
    confirm:
      'Revise year {{year}} {{pattern}}: year-end MRR {{mrr}}, year-end ARR {{arr}}, remaining revenue {{change}}. The actuals stay as entered.',
    unavailable: 'This year cannot be revised until it has an actual month with a month of the year left after it.',
  },
};

export default compare;
