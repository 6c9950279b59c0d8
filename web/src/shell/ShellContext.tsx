import type { PlanListItem } from '@topline/contract';
import { createContext, useContext } from 'react';
import type { SavedAnswer } from '../plan/engineSession';

export type SettingsTab = 'plans' | 'plan' | 'history' | 'profile';

/** What a working screen needs from the shell: its plan, the shared year, loading and the settings modal. */
export interface ShellView {
  plan: PlanListItem;
  year: number;
  setYear: (year: number) => void;
  setLoading: (loading: boolean) => void;
  openSettings: (tab?: SettingsTab) => void;
  /**
   * The plan's inputs changed outside the screen (a restore): the screen reads them again, and the browser's engine
   * follows the write's answer (its change set), or reads the plan again when it carries none (`followSave`).
   */
  planChanged: (answer: SavedAnswer) => void;
}

export const ShellContext = createContext<ShellView | null>(null);

export function useShell(): ShellView {
  const view = useContext(ShellContext);
  if (!view) throw new Error('useShell outside the plan shell');
  return view;
}
