/** English messages of the editable grids' spreadsheet keys: the sign rule, paste, fill and undo (web/src/grid/sheet). */
const grid = {
  table: {
    /** The label column's header: the unit of the figures. */
    unit: 'Amounts in {{currency}}',
    /** The skip link at the top of a screen with a grid. */
    skip: 'Skip to the grid',
    /** A chart's money axis: its unit and the currency. */
    axis: '{{unit}} ({{currency}})',
    axisOne: '{{currency}}',
  },
  sheet: {
    sign: {
      cost: '“{{text}}” would book a negative cost. This row shows costs as negative figures: type a cost of 3,000 as -3,000, ▲3,000 or (3,000).',
      positive: '“{{text}}” is negative. This row takes {{what}} as 0 or a positive figure.',
    },
    kind: {
      revenue: 'revenue',
      funding: 'funds raised',
      repayment: 'repayments',
      cost: 'costs',
      balance: 'a balance',
      movement: 'a cash movement',
    },
    pasteRefused_one: 'Nothing was pasted: 1 cell cannot take its value (see the message at the cell).',
    pasteRefused_other: 'Nothing was pasted: {{count}} cells cannot take their values (see the messages at the cells).',
    notEditable: 'Nothing was pasted: no cell of this range can be edited here.',
    copied_one: '1 cell copied',
    copied_other: '{{count}} cells copied',
  },
};

export default grid;
export type GridMessages = typeof grid;
