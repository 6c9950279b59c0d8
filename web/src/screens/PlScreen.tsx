import { ScreenPlaceholder } from './ScreenPlaceholder';

/** Pl screen of a business plan (spec/working-screens.md section 2). */
export default function PlScreen() {
  return <ScreenPlaceholder titleKey="shell.pl" screen="pl" />;
}
