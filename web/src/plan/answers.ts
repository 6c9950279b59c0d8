/** Reading the API's answers for a working screen: one answer kept and read again after a save, and CSV files. */
import i18next from 'i18next';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  type AnswerAt,
  api,
  type CsvPath,
  type GetArgs,
  type GetPath,
  getToken,
  isPanelRefusal,
  type QueryOf,
} from '../api/client';
import { currentLanguage } from '../i18n';

/**
 * Reads one API answer and keeps it; `reload` reads it again (after a save the saved answer wins). Errors are
 * announced by the client; a tier-lock or no-access error is rethrown while rendering so the shell's boundary shows
 * its panel.
 */
export function useRetrieve<P extends GetPath>(path: P, query: QueryOf<P>, enabled = true) {
  type Answer = AnswerAt<P>;
  const [data, setData] = useState<Answer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const key = `${path}?${JSON.stringify(query)}`;
  const latest = useRef(key);
  latest.current = key;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for path and query
  const reload = useCallback(async (): Promise<Answer | null> => {
    try {
      const answer = await api.get(path, ...([{ query }] as GetArgs<P>));
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
  if (isPanelRefusal(error)) throw error;
  return { data, setData, reload, error };
}

/** Saves a file the API answers (CSV) under the name it gives in Content-Disposition. */
export async function download<P extends CsvPath>(path: P, query: QueryOf<P>, fallbackName: string) {
  const url = new URL(`/api/v1${path}`, window.location.origin);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  // Headers and labels in the interface language.
  if (!url.searchParams.has('lang')) url.searchParams.set('lang', currentLanguage(i18next.language));
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
