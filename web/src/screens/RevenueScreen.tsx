import { ScreenPlaceholder } from './ScreenPlaceholder';

/** Revenue screen of a business plan (spec/working-screens.md section 2). */
export default function RevenueScreen() {
  return <ScreenPlaceholder titleKey="shell.revenue" screen="revenue" />;
}
