/**
 * The sign each entered money input takes, written once: the web's cell editor and paste reader (through the
 * contract's `signs.ts`), and the actual-inputs import of the spreadsheets, all refuse a figure of the other sign
 * rather than book it. Costs, revenue, funding and repayments are stored as positive amounts (MODEL.md section 3:
 * gross_profit = revenue - cogs; section 3, cash: net_cash_movement = … - debt_payment); the opening balance and
 * other cash movements may take either sign. Counts, ARPA and head counts are never negative by their bounds.
 */

/** What an input is, in the words a refusal uses. */
export type InputKind = 'cost' | 'revenue' | 'funding' | 'repayment' | 'balance' | 'movement';

export interface InputSign {
  kind: InputKind;
  /** The stored value is zero or positive; `any` takes either sign. */
  takes: 'positive' | 'any';
}

export const INPUT_SIGNS: Readonly<Record<string, InputSign>> = {
  professional_service: { kind: 'revenue', takes: 'positive' },
  cogs: { kind: 'cost', takes: 'positive' },
  sm: { kind: 'cost', takes: 'positive' },
  rd: { kind: 'cost', takes: 'positive' },
  ga: { kind: 'cost', takes: 'positive' },
  equity_raised: { kind: 'funding', takes: 'positive' },
  debt_raised: { kind: 'funding', takes: 'positive' },
  debt_payment: { kind: 'repayment', takes: 'positive' },
  beginning_cash_balance: { kind: 'balance', takes: 'any' },
  other: { kind: 'movement', takes: 'any' },
};

/** The sign rule of an input key, or undefined for an input whose bounds alone decide (counts, ARPA, rates). */
export const inputSign = (key: string): InputSign | undefined => INPUT_SIGNS[key];

/** A stored value has the sign its input takes (a negative cost or repayment has not). */
export const hasInputSign = (key: string, stored: number): boolean =>
  inputSign(key)?.takes !== 'positive' || stored >= 0;

/** The sign an input takes as the spreadsheets' actual-inputs sheets say it, after the row's label. */
export function inputSignNote(key: string): string | null {
  const sign = inputSign(key);
  if (!sign) return null;
  return sign.takes === 'positive' ? `${sign.kind}: 0 or positive` : 'positive or negative';
}

/** Why a stored value of the wrong sign is refused, as the import names it at its cell. */
export function inputSignMessage(key: string): string {
  const sign = inputSign(key);
  return `must be 0 or positive: ${sign?.kind === 'cost' ? 'a cost' : (sign?.kind ?? 'this input')} is entered as a positive amount here`;
}
