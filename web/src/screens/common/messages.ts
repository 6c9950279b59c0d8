import i18next from 'i18next';
import en from '../../i18n/screens.en';
import ja from '../../i18n/screens.ja';

// The working screens' messages, merged into the app's translation namespace when the first screen loads.
i18next.addResourceBundle('en', 'translation', en, true, false);
i18next.addResourceBundle('ja', 'translation', ja, true, false);
