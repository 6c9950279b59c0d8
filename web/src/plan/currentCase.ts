import { useCallback, useState } from 'react';

const keyOf = (planId: string | number) => `topline.current_case.${planId}`;

/**
 * The case the working screens show, shared between them for this browser tab; the first case when none is chosen
 * or the chosen one is gone (working-screens.md section 4).
 */
export function useCurrentCase<C extends { case_id: number }>(planId: string | number, cases: readonly C[]) {
  const [chosen, setChosen] = useState<number | null>(() => {
    const stored = window.sessionStorage.getItem(keyOf(planId));
    return stored ? Number(stored) : null;
  });
  const current = cases.find((c) => c.case_id === chosen) ?? cases[0] ?? null;
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
