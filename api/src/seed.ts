import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Db } from './db';
import { hashPassword } from './services/accounts/passwords';
import { allowSignup, setTier, type UserRow } from './services/accounts/users';

const demoAccountSchema = z.object({
  email: z.email(),
  password: z.string().min(8),
  name: z.string().max(50),
  company_name: z.string().max(50),
  position: z.string().max(50),
  employees: z.string().max(20),
  stage: z.string().max(50),
  tier: z.enum(['free', 'basic', 'team']),
});
export type DemoAccount = z.infer<typeof demoAccountSchema>;

export interface SeedResult {
  seeded: boolean;
  demo: DemoAccount;
  planIds: number[];
}

const DEMO_PLANS = ['actuals-revisions.json', 'three-cases.json', 'selfserve-usd-custom.json'];

export type PlanImporter = (db: Db, ownerId: number, planJson: unknown, today: Date) => Promise<number>;

/**
 * Fills an empty database (no users yet) with the demo account, the sign-up allow list and the demo plans of
 * `fixtures/plans/`; a database that has users is left alone.
 */
export async function seedIfEmpty(
  db: Db,
  fixturesDir: string,
  importPlan: PlanImporter | null,
  today: Date,
): Promise<SeedResult> {
  const demo = demoAccountSchema.parse(JSON.parse(await readFile(join(fixturesDir, 'accounts', 'demo.json'), 'utf8')));
  const [row] = await db('users').count<{ count: string | number }[]>('id as count');
  if (Number(row?.count ?? 0) > 0) return { seeded: false, demo, planIds: [] };

  const allowList = z
    .array(z.email())
    .parse(JSON.parse(await readFile(join(fixturesDir, 'accounts', 'allowlist.json'), 'utf8')));
  for (const email of allowList) await allowSignup(db, email);
  const [user] = await db<UserRow>('users')
    .insert({
      email: demo.email.toLowerCase(),
      password_hash: await hashPassword(demo.password),
      auth_provider: 'email',
      name: demo.name,
      company_name: demo.company_name,
      position: demo.position,
      employees: demo.employees,
      stage: demo.stage,
    })
    .returning('*');
  if (!user) throw new Error('demo user insert returned nothing');
  await setTier(db, user.id, demo.tier, null, today);

  const planIds: number[] = [];
  if (importPlan) {
    const plansDir = join(fixturesDir, 'plans');
    const files = (await readdir(plansDir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
    // The demo owns as many plans as its tier allows; the ones with actuals and several cases show the most.
    const preferred = DEMO_PLANS.filter((f) => files.includes(f));
    for (const file of (preferred.length ? preferred : files).slice(0, 3)) {
      planIds.push(await importPlan(db, user.id, JSON.parse(await readFile(join(plansDir, file), 'utf8')), today));
    }
  }
  return { seeded: true, demo, planIds };
}
