import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import en from './en';
import ja from './ja';

export const LANGUAGES = ['ja', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Japanese or English by the browser language, remembered once the user switches. */
export function initI18n(): typeof i18next {
  void i18next
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources: { en: { translation: en }, ja: { translation: ja } },
      supportedLngs: [...LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: 'en',
      interpolation: { escapeValue: false },
      detection: {
        order: ['localStorage', 'navigator'],
        lookupLocalStorage: 'topline.lang',
        caches: ['localStorage'],
      },
    });
  return i18next;
}

export function currentLanguage(language: string | undefined): Language {
  return language?.startsWith('ja') ? 'ja' : 'en';
}
