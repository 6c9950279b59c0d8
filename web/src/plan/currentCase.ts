import { useCallback, useState } from 'react';

const keyOf = (planId: string | number) => `topline.current_case.${planId}`;

/**
 * The case the working screens show, shared between them for this browser tab; the first case when none is chosen
 * or the chosen one is gone (working-screens.md section 4).
 */
export function useCurrentCase<C extends { case_id: number }>(planId: string | number, cases: readonly C[]) {
  const [chosen, setChosen] = useState<number | null>(() => chosenCase(planId));
  const current = caseShown(cases, chosen);
  const choose = useCallback(
    (caseId: number | null) => {
      if (caseId === null) window.sessionStorage.removeItem(keyOf(planId));
      else window.sessionStorage.setItem(keyOf(planId), String(caseId));
      setChosen(caseId);
    },
    [planId],
  );
  return { current, choose };
}

/** The case chosen for a plan in this browser tab, if one was. */
export function chosenCase(planId: string | number): number | null {
  const stored = window.sessionStorage.getItem(keyOf(planId));
  return stored ? Number(stored) : null;
}

/** The case the screens show: the chosen one while the plan holds it, else the first; null without cases. */
export function caseShown<C extends { case_id: number }>(cases: readonly C[], chosen: number | null): C | null {
  return cases.find((c) => c.case_id === chosen) ?? cases[0] ?? null;
}
