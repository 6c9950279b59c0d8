import { ScreenPlaceholder } from './ScreenPlaceholder';

/** Kpi screen of a business plan (spec/working-screens.md section 2). */
export default function KpiScreen() {
  return <ScreenPlaceholder titleKey="shell.kpi" screen="kpi" />;
}
