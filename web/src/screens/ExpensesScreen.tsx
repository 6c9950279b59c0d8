import { ScreenPlaceholder } from './ScreenPlaceholder';

/** Expenses screen of a business plan (spec/working-screens.md section 2). */
export default function ExpensesScreen() {
  return <ScreenPlaceholder titleKey="shell.cost" screen="expenses" />;
}
