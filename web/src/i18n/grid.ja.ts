import type { GridMessages } from './grid.en';

/** 編集できる表のスプレッドシート操作の日本語メッセージ: 符号のルール、貼り付け、フィル、元に戻す (web/src/grid/sheet)。 */
const grid: GridMessages = {
  table: {
    unit: '金額（{{currency}}）',
    skip: '表へ移動',
    axis: '{{unit}}（{{currency}}）',
    axisOne: '{{currency}}',
  },
  sheet: {
    sign: {
      cost: '「{{text}}」ではマイナスの費用になります。この行は費用をマイナスで表示します。費用 3,000 は -3,000、▲3,000 または (3,000) と入力してください。',
      positive: '「{{text}}」はマイナスです。この行の{{what}}は 0 以上で入力してください。',
    },
    kind: {
      revenue: '売上',
      funding: '調達額',
      repayment: '返済額',
      cost: '費用',
      balance: '残高',
      movement: '資金の増減',
    },
    pasteRefused_one: '貼り付けませんでした: 1 つのセルが値を受け付けません (セルのメッセージをご覧ください)。',
    pasteRefused_other:
      '貼り付けませんでした: {{count}} 個のセルが値を受け付けません (セルのメッセージをご覧ください)。',
    notEditable: '貼り付けませんでした: この範囲にここで編集できるセルがありません。',
    copied_one: '1 セルをコピーしました',
    copied_other: '{{count}} セルをコピーしました',
  },
};

export default grid;
