import type { TierNotice } from '@topline/contract';
import { useTranslation } from 'react-i18next';

export type Translate = (key: string, values?: Record<string, string | number>) => string;

/** year/month/day, the interface's date format. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${date.getFullYear()}/${String(date.getMonth() + 1).padStart(2, '0')}/${String(date.getDate()).padStart(2, '0')}`;
}

/** What a lower tier changed, as sentences for the user (GET /user/me `notice`). */
export function tierNoticeMessages(notice: TierNotice, t: Translate): string[] {
  const messages = [
    t(`settings.down.${notice.reason}`, { plan: t(`landing.plans.${notice.to}.name`), date: formatDate(notice.at) }),
  ];
  if (notice.read_only_plans.length > 0) {
    messages.push(t('settings.down.readOnly', { count: notice.read_only_plans.length }));
  }
  if (notice.viewer_only_members > 0) {
    messages.push(t('settings.down.viewers', { count: notice.viewer_only_members }));
  }
  return messages;
}

/** The notice of a lower tier, where the user sees it (the shell and the Plan tab). */
export function TierNoticeBox({ notice }: { notice: TierNotice }) {
  const { t } = useTranslation();
  return (
    <div className="tier-notice" role="status" data-test="tier-notice">
      {tierNoticeMessages(notice, t).map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}
