import { useContext } from 'react';
import { ShellContext } from '../shell/ShellContext';

/** The sign of a plan's currency, as the grids' unit labels and the charts' axes show it. */
export function currencySymbol(currency: string | undefined): string {
  return currency === 'USD' ? '$' : '¥';
}

/** The sign of the currency of the plan on screen (¥ outside a plan's shell). */
export function useCurrencySymbol(): string {
  return currencySymbol(useContext(ShellContext)?.plan.currency);
}
