import { BILLING_RETURN_PATH } from '@topline/contract';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, Navigate, Route, RouterProvider, Routes, useLocation, useNavigate } from 'react-router';
import { configureClient, getToken } from './api/client';
import { runtimeConfig } from './config';
import { currentLanguage } from './i18n';
import { NoticeProvider, useNotice } from './notices';
import { LandingPage } from './pages/landing/LandingPage';
import { type LoginState, SessionProvider, useSession } from './session';
import { Loading } from './shell/Loading';
import { isPlanPath, planShell, preloadPlanRoute, startPlanPage } from './shell/routePreload';

startPlanPage(window.location.pathname);

const LoginPage = lazy(() => import('./pages/LoginPage'));
const PasswordResetPage = lazy(() => import('./pages/PasswordResetPage'));
const SignupConfirmPage = lazy(() => import('./pages/SignupConfirmPage'));
const InvitationPage = lazy(() => import('./pages/InvitationPage'));
const LegalPage = lazy(() => import('./pages/LegalPage'));
const ErrorPage = lazy(() => import('./pages/ErrorPage'));
const CreatePage = lazy(() => import('./wizard/CreatePage'));
const PlanShell = planShell.Component;
const GoogleDriveCallback = lazy(() => import('./screens/GoogleDriveCallback'));
const BillingReturn = lazy(() => import('./settings/BillingReturn'));

/**
 * Wires the API client to the router and to the notice area. A 401 (the token expired or was revoked) sends the user
 * to Login with where they were, to go back there after signing in again.
 */
function ClientWiring() {
  const navigate = useNavigate();
  const notify = useNotice();
  const { t } = useTranslation();
  const { expire } = useSession();
  useEffect(() => {
    configureClient({
      onUnauthorized: () => {
        // Several calls may be refused at once: the first sends the user on, with where they were.
        if (window.location.pathname === '/login') return;
        const from = `${window.location.pathname}${window.location.search}`;
        expire(from);
        navigate('/login', { replace: true, state: { from } satisfies LoginState });
      },
      onNotice: notify,
      translate: (key) => t(key),
    });
  }, [navigate, notify, t, expire]);
  return null;
}

const PAGE_TITLES: Record<string, string> = {
  '/login': 'auth.title',
  '/password-reset': 'auth.resetTitle',
  '/signup/confirm': 'auth.signupTitle',
  '/invitation': 'auth.invitationTitle',
  '/terms': 'nav.terms',
  '/law': 'nav.law',
  '/privacy-policy': 'nav.privacy',
  '/create': 'shell.addPlan',
  '/500': 'errorPage.internal',
};

/** Keeps the document language and title in step and scrolls to the top on every page change. */
function PageEffects() {
  const { pathname } = useLocation();
  const { t, i18n } = useTranslation();
  useEffect(() => {
    document.documentElement.lang = currentLanguage(i18n.language);
  }, [i18n.language]);
  useEffect(() => {
    const page = PAGE_TITLES[pathname];
    document.title = page ? `${t(page)} | Topline` : `Topline | ${t('app.tagline')}`;
  }, [pathname, t]);
  useEffect(() => {
    if (pathname) window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/**
 * Anonymous visitors go Home; a session that ended mid-way (a 401) goes to Login, remembering where the user was. The
 * session is re-read before each navigation inside.
 */
function RequireAuth({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const session = useSession();
  const { refresh } = session;
  const hasToken = getToken() !== null;
  // Entering the plan pages, the page waits for their shell and screen as it waits for the session, so that they
  // render at once rather than through a fallback React would hold for 300 ms (`preloadable.tsx`). Later moves
  // between screens never wait here.
  const [entered, setEntered] = useState(() => !isPlanPath(pathname) || planShell.loaded());
  useEffect(() => {
    if (!hasToken || !pathname) return;
    void refresh();
    // A plan page's shell and screen load while the session is read (after its request, which thus goes first); on a
    // cold start `startPlanPage` has asked for both already.
    void preloadPlanRoute(pathname).then(() => setEntered(true));
  }, [hasToken, pathname, refresh]);
  const toLogin = session.expiredFrom !== null;
  const login = <Navigate to="/login" replace state={{ from: session.expiredFrom ?? '/' } satisfies LoginState} />;
  if (!hasToken) return toLogin ? login : <Navigate to="/" replace />;
  if (!session.loaded || !entered) return <Loading />;
  if (!session.user)
    return session.failed ? <Navigate to="/500" replace /> : toLogin ? login : <Navigate to="/" replace />;
  return <>{children}</>;
}

/** The router view that sends the visitor to the external marketing site in their language. */
function MarketingRedirect() {
  const { i18n } = useTranslation();
  const config = runtimeConfig();
  const target = currentLanguage(i18n.language) === 'ja' ? config.marketingSiteJa : config.marketingSiteEn;
  useEffect(() => {
    if (target) window.location.replace(target);
  }, [target]);
  return target ? <Loading /> : <Navigate to="/" replace />;
}

export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="/site" element={<MarketingRedirect />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/password-reset" element={<PasswordResetPage />} />
        <Route path="/signup/confirm" element={<SignupConfirmPage />} />
        <Route path="/invitation" element={<InvitationPage />} />
        <Route path="/terms" element={<LegalPage kind="terms" />} />
        <Route path="/law" element={<LegalPage kind="law" />} />
        <Route path="/privacy-policy" element={<LegalPage kind="privacy" />} />
        <Route path="/privacyPolicy" element={<Navigate to="/privacy-policy" replace />} />
        <Route path="/500" element={<ErrorPage code={500} />} />
        <Route
          path="/create"
          element={
            <RequireAuth>
              <CreatePage />
            </RequireAuth>
          }
        />
        <Route
          path="/business-plans/:id/*"
          element={
            <RequireAuth>
              <PlanShell />
            </RequireAuth>
          }
        />
        <Route
          path="/oauth/google-drive"
          element={
            <RequireAuth>
              <GoogleDriveCallback />
            </RequireAuth>
          }
        />
        <Route
          path={BILLING_RETURN_PATH}
          element={
            <RequireAuth>
              <BillingReturn />
            </RequireAuth>
          }
        />
        <Route path="*" element={<ErrorPage code={404} />} />
      </Routes>
    </Suspense>
  );
}

function Root() {
  return (
    <NoticeProvider>
      <SessionProvider>
        <ClientWiring />
        <PageEffects />
        <AppRoutes />
      </SessionProvider>
    </NoticeProvider>
  );
}

/**
 * A data router whose one splat route holds the app's own route table (`AppRoutes`): the routes stay where they are,
 * and screens can ask before leaving with unsaved edits (`useBlocker` needs a data router).
 */
let router: ReturnType<typeof createBrowserRouter> | undefined;

export function App() {
  router ??= createBrowserRouter([{ path: '*', element: <Root /> }]);
  return <RouterProvider router={router} />;
}
