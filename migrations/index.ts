import type { Knex } from 'knex';
import * as initial from './001_initial';
import * as changeNotifications from './002_change_notifications';
import * as accountSecurity from './003_account_security';
import * as throttleCounts from './004_throttle_counts';
import * as itemVersions from './005_item_versions';
import * as schemaNotifications from './006_schema_notifications';
import * as billing from './007_billing';
import * as planTodos from './008_plan_todos';
import * as spreadsheetLinks from './009_spreadsheet_links';
import * as planHistory from './010_plan_history';
import * as planVersionNotifications from './011_plan_version_notifications';
import * as planHistoryIcon from './012_plan_history_icon';
import * as signupConfirmation from './013_signup_confirmation';
import * as planIcons from './014_plan_icons';
import * as planSnapshots from './016_plan_snapshots';
import * as idempotencyKeys from './017_idempotency_keys';

/** Every migration in order; the API runs them at start through knex's migration source interface. */
export const migrations: ReadonlyArray<{ name: string; migration: Knex.Migration }> = [
  { name: '001_initial', migration: initial },
  { name: '002_change_notifications', migration: changeNotifications },
  { name: '003_account_security', migration: accountSecurity },
  { name: '004_throttle_counts', migration: throttleCounts },
  { name: '005_item_versions', migration: itemVersions },
  { name: '006_schema_notifications', migration: schemaNotifications },
  { name: '007_billing', migration: billing },
  { name: '008_plan_todos', migration: planTodos },
  { name: '009_spreadsheet_links', migration: spreadsheetLinks },
  { name: '010_plan_history', migration: planHistory },
  { name: '011_plan_version_notifications', migration: planVersionNotifications },
  { name: '012_plan_history_icon', migration: planHistoryIcon },
  { name: '013_signup_confirmation', migration: signupConfirmation },
  { name: '014_plan_icons', migration: planIcons },
  { name: '016_plan_snapshots', migration: planSnapshots },
  { name: '017_idempotency_keys', migration: idempotencyKeys },
];
