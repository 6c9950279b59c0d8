import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, api } from '../api/client';
import { Loading } from '../shell/Loading';
import { DRIVE_PLAN_KEY, type SpreadsheetReturn } from '../spreadsheet/driveReturn';
import './common/messages';

/**
 * Callback of the spreadsheet connection (working-screens.md section 2): Google's consent page sends the browser
 * here with `?code=…&state=…`. The page shows "Redirecting...", completes the connection for the plan stored before
 * the browser left (POST /spreadsheet/connect with the query string), and returns to that plan's monthly P&L, whose
 * spreadsheet modal opens with the result: connected, or the server's message.
 */
export default function GoogleDriveCallback() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const started = useRef(false);
  useEffect(() => {
    // Once: a code is good for one exchange (React's development double effect must not send it twice).
    if (started.current) return;
    started.current = true;
    const planId = Number(window.localStorage.getItem(DRIVE_PLAN_KEY));
    if (!Number.isInteger(planId) || planId < 1) {
      navigate('/', { replace: true });
      return;
    }
    window.localStorage.removeItem(DRIVE_PLAN_KEY);
    const back = (state: SpreadsheetReturn) =>
      navigate(`/business-plans/${planId}/monthly_pl`, { replace: true, state });
    api
      .post('/spreadsheet/connect', { business_plan_id: planId, auth_param: window.location.search }, { quiet: true })
      .then(
        () => back({ spreadsheet: { connected: true } }),
        (error: unknown) =>
          back({
            spreadsheet: {
              connected: false,
              message: error instanceof ApiError ? error.message : t('ws.spreadsheet.result.failed'),
            },
          }),
      );
  }, [navigate, t]);
  return (
    <div className="redirecting">
      <p>Redirecting...</p>
      <Loading />
    </div>
  );
}
