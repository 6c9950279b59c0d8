import type { MeAnswer, PlanListItem, UserView } from '@topline/contract';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { ApiError, api, clearToken, getToken } from './api/client';

type Me = MeAnswer['data'];

/** The signed-in user and their business plans, read from GET /user/me and refreshed on demand. */
export interface Session {
  user: UserView | null;
  plans: PlanListItem[];
  loaded: boolean;
  /** The last read of the session failed on the server's side (not a sign-out). */
  failed: boolean;
  refresh: () => Promise<Me | null>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);

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
  }, []);

  const value = useMemo<Session>(
    () => ({ user: me?.user ?? null, plans: me?.business_plans ?? [], loaded, failed, refresh, signOut }),
    [me, loaded, failed, refresh, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** Where a user goes after signing in: the first owned plan's P&L, else Create. */
export function landingPathFor(plans: readonly PlanListItem[]): string {
  const owned = plans.find((plan) => plan.is_owner);
  return owned ? `/business-plans/${owned.business_plan_id}/pl` : '/create';
}
