/**
 * Debian's Chromium as every browser test and benchmark launches it (never a downloaded browser), and its flags.
 */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Features switched off. Chromium 156 makes the omnibox's pop-ups of every new window as WebUI pages (two
 * `chrome://omnibox-popup.top-chrome/` pages with a renderer of their own, loading about a hundred scripts), and
 * headless it makes a window of every browser context: some 50 ms of the processor per context, spent while the
 * test's page loads, and in the screen benchmark beside the screen being timed. A user's browser has its window open
 * already, so they are not part of what a page costs.
 */
const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/** The flags, but `--headless`, which playwright-core and vitest's browser mode add themselves. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

/** The flags as the guide gives them, `--headless` first. */
export const CHROMIUM_ARGS = ['--headless', ...CHROMIUM_FLAGS];
