import { useCallback, useEffect, useRef, useState } from 'react';
import { api, getToken } from '../api/client';
import type { AreaKey, AreaRole, BusinessPlanItem } from '../api/types';

/**
 * Reads one API answer and keeps it; `reload` reads it again (after a save the saved answer wins). Errors are
 * announced by the client; a tier-lock or no-access error is rethrown while rendering so the shell's boundary shows
 * its panel.
 */
export function useRetrieve<T>(path: string, query: Record<string, string | number | undefined>, enabled = true) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const key = `${path}?${JSON.stringify(query)}`;
  const latest = useRef(key);
  latest.current = key;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for path and query
  const reload = useCallback(async (): Promise<T | null> => {
    try {
      const answer = await api.get<T>(path, { query });
      if (latest.current === key) setData(answer.data);
      return answer.data;
    } catch (caught) {
      if (latest.current === key) setError(caught);
      return null;
    }
  }, [key]);
  useEffect(() => {
    if (enabled) void reload();
  }, [reload, enabled]);
  const kind = (error as { kind?: string } | null)?.kind;
  if (kind === 'tier_lock' || kind === 'no_access') throw error;
  return { data, setData, reload, error };
}

/** The caller's level in an area: the owner edits everything; members as the plan's role says. */
export function roleOf(plan: BusinessPlanItem, area: AreaKey): AreaRole {
  if (plan.is_owner || !plan.role) return 'can_edit';
  return plan.role[area] ?? 'can_view';
}

export const canEdit = (plan: BusinessPlanItem, area: AreaKey): boolean => roleOf(plan, area) === 'can_edit';

/** Saves a file the API answers (CSV) under the name it gives in Content-Disposition. */
export async function download(path: string, query: Record<string, string | number>, fallbackName: string) {
  const url = new URL(`/api/v1${path}`, window.location.origin);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const token = getToken();
  const response = await fetch(url, {
    headers: { 'X-Requested-With': 'XMLHttpRequest', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!response.ok) throw new Error(`download failed: ${response.status}`);
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const encoded = disposition.match(/filename\*=UTF-8''([^;]+)/)?.[1];
  const name = encoded ? decodeURIComponent(encoded) : fallbackName;
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

export interface CaseRef {
  case_id: number;
  case_name: string;
}

/** The plan's cases as /user/me lists them (the web client's plan type does not name the field yet). */
export function planCases(plan: BusinessPlanItem): CaseRef[] {
  const cases = (plan as BusinessPlanItem & { cases?: unknown }).cases;
  return Array.isArray(cases)
    ? cases.filter(
        (c): c is CaseRef => typeof c === 'object' && c !== null && typeof (c as CaseRef).case_id === 'number',
      )
    : [];
}
