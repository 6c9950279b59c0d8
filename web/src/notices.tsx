import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Notice } from './api/client';

interface ShownNotice extends Notice {
  id: number;
}

const NoticeContext = createContext<(notice: Notice) => void>(() => {});

let nextId = 1;

/** Flash notices: server errors with their `{title, message}` and success messages; each fades after 5 s. */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<ShownNotice[]>([]);
  const { t } = useTranslation();
  const show = useCallback((notice: Notice) => {
    const id = nextId++;
    setNotices((current) => [...current, { ...notice, id }]);
    window.setTimeout(() => setNotices((current) => current.filter((n) => n.id !== id)), 5000);
  }, []);
  const dismiss = (id: number) => setNotices((current) => current.filter((n) => n.id !== id));
  const value = useMemo(() => show, [show]);
  return (
    <NoticeContext.Provider value={value}>
      {children}
      <div className="notices" aria-live="polite">
        {notices.map((notice) => (
          <div
            key={notice.id}
            className={`notice notice-${notice.kind}`}
            role={notice.kind === 'error' ? 'alert' : 'status'}
          >
            <strong>{notice.title}</strong>
            <span>{notice.message}</span>
            <button
              type="button"
              className="notice-close"
              aria-label={t('common.close')}
              onClick={() => dismiss(notice.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}

export function useNotice(): (notice: Notice) => void {
  return useContext(NoticeContext);
}
