import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { initI18n } from './i18n';
// The app's styles, in cascade order: base first, then each area of the site and the app. The working screens' styles
// load with the screens (web/src/styles/screens/).
import './styles/base.css';
import './styles/site.css';
import './styles/landing.css';
import './styles/pricing.css';
import './styles/legal.css';
import './styles/auth.css';
import './styles/wizard.css';
import './styles/shell.css';
import './styles/settings.css';

initI18n();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
