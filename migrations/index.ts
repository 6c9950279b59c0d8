import type { Knex } from 'knex';
import * as initial from './001_initial';
import * as changeNotifications from './002_change_notifications';

/** Every migration in order; the API runs them at start through knex's migration source interface. */
export const migrations: ReadonlyArray<{ name: string; migration: Knex.Migration }> = [
  { name: '001_initial', migration: initial },
  { name: '002_change_notifications', migration: changeNotifications },
];
