import type { MeAnswer, PlanListItem, TierNotice, UserView } from '@topline/contract';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { ApiError, api, clearToken, getToken } from './api/client';

type Me = MeAnswer['data'];

/** The signed-in user and their business plans, read from GET /user/me and refreshed on demand. */
export interface Session {
  user: UserView | null;
  plans: PlanListItem[];
  /** What a lower tier changed (the trial or the subscription ended, a payment failed); null otherwise. */
  notice: TierNotice | null;
  loaded: boolean;
  /** The last read of the session failed on the server's side (not a sign-out). */
  failed: boolean;
  refresh: () => Promise<Me | null>;
  signOut: () => Promise<void>;
  /** Where the user was when the server ended the session (a 401), until they sign in again; else null. */
  expiredFrom: string | null;
  expire: (from: string) => void;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const [expiredFrom, setExpiredFrom] = useState<string | null>(null);
  const expire = useCallback((from: string) => setExpiredFrom(from), []);

  const refresh = useCallback(async () => {
    if (!getToken()) {
      setMe(null);
      setLoaded(true);
      return null;
    }
    try {
      const answer = await api.get('/user/me', { quiet: true });
      setMe(answer.data);
      setFailed(false);
      setExpiredFrom(null);
      return answer.data;
    } catch (error) {
      setMe(null);
      setFailed(error instanceof ApiError && error.code !== 'unauthorized');
      return null;
    } finally {
      setLoaded(true);
    }
  }, []);

  const signOut = useCallback(async () => {
    try {
      await api.post('/user/signout', {}, { quiet: true });
    } catch {
      // Signing out locally is enough when the server call fails.
    }
    clearToken();
    setMe(null);
    setExpiredFrom(null);
  }, []);

  const value = useMemo<Session>(
    () => ({
      user: me?.user ?? null,
      plans: me?.business_plans ?? [],
      notice: me?.notice ?? null,
      loaded,
      failed,
      refresh,
      signOut,
      expiredFrom,
      expire,
    }),
    [me, loaded, failed, refresh, signOut, expiredFrom, expire],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/**
 * Where a user goes after signing in: the first owned plan's P&L, else Create. Someone who came by an invitation link
 * goes to the plan they were invited to (the first plan they are a member of).
 */
export function landingPathFor(plans: readonly PlanListItem[], options: { invited?: boolean } = {}): string {
  const owned = plans.find((plan) => plan.is_owner);
  const joined = options.invited ? plans.find((plan) => !plan.is_owner) : undefined;
  const target = joined ?? owned;
  return target ? `/business-plans/${target.business_plan_id}/pl` : '/create';
}

/** The router state with which a session that ended mid-way is sent to Login: where the user was. */
export interface LoginState {
  from: string;
}

/** The in-app path to go back to after signing in again, if the Login page was opened with one (never another site). */
export function returnPathOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('from' in state)) return null;
  const from = (state as { from: unknown }).from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/login'))
    return null;
  return from;
}
