import { ScreenPlaceholder } from './ScreenPlaceholder';

/** Home screen of a business plan (spec/working-screens.md section 2). */
export default function HomeScreen() {
  return <ScreenPlaceholder titleKey="shell.home" screen="home" />;
}
