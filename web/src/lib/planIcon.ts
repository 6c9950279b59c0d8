import { useEffect, useState } from 'react';
import { fetchImage } from '../api/client';

/**
 * Plan icons by the URL `/user/me` names (its hash in it: the bytes behind one URL never change), as object URLs, each
 * fetched once per page. The browser's HTTP cache keeps the answers across pages (`Cache-Control: immutable`).
 */
const loading = new Map<string, Promise<string>>();
const loaded = new Map<string, string>();

function load(url: string): Promise<string> {
  let pending = loading.get(url);
  if (!pending) {
    pending = fetchImage(url).then((blob) => {
      const src = URL.createObjectURL(blob);
      loaded.set(url, src);
      return src;
    });
    // A failed fetch (the icon is gone, the network dropped) is tried again by the next screen that shows it.
    pending.catch(() => loading.delete(url));
    loading.set(url, pending);
  }
  return pending;
}

/**
 * What an <img> shows for a plan's icon URL: the icon's object URL once fetched, null before, on failure or without an
 * icon. The icon is fetched with the bearer token, which an <img> of the URL itself would not send.
 */
export function usePlanIcon(url: string | null): string | null {
  const [src, setSrc] = useState<string | null>(url ? (loaded.get(url) ?? null) : null);
  useEffect(() => {
    if (!url) return;
    let live = true;
    load(url).then(
      (next) => live && setSrc(next),
      () => live && setSrc(null),
    );
    return () => {
      live = false;
    };
  }, [url]);
  if (!url) return null;
  return loaded.get(url) ?? src;
}
