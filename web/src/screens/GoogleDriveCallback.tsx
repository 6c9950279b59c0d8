import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Loading } from '../shell/Loading';

export const DRIVE_PLAN_KEY = 'topline.drive_plan_id';

/** Callback of the spreadsheet connection: shows "Redirecting..." and returns to the stored plan's monthly P&L. */
export default function GoogleDriveCallback() {
  const navigate = useNavigate();
  useEffect(() => {
    const planId = window.localStorage.getItem(DRIVE_PLAN_KEY);
    navigate(planId ? `/business-plans/${planId}/monthly_pl${window.location.search}` : '/', { replace: true });
  }, [navigate]);
  return (
    <div className="redirecting">
      <p>Redirecting...</p>
      <Loading />
    </div>
  );
}
