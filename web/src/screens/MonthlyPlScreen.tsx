import { ScreenPlaceholder } from './ScreenPlaceholder';

/** MonthlyPl screen of a business plan (spec/working-screens.md section 2). */
export default function MonthlyPlScreen() {
  return <ScreenPlaceholder titleKey="shell.monthlyPl" screen="monthly_pl" />;
}
