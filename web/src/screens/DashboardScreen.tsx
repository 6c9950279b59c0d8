import { ScreenPlaceholder } from './ScreenPlaceholder';

/** Dashboard screen of a business plan (spec/working-screens.md section 2). */
export default function DashboardScreen() {
  return <ScreenPlaceholder titleKey="shell.dashboard" screen="dashboard" />;
}
