import { ScreenPlaceholder } from './ScreenPlaceholder';

/** Setting screen of a business plan (spec/working-screens.md section 2). */
export default function SettingScreen() {
  return <ScreenPlaceholder titleKey="shell.businessPlanSetting" screen="setting" />;
}
