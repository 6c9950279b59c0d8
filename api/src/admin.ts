import type { Tier } from '@topline/contract';
import { ConfigError, loadConfig } from './config';
import { openRuntime } from './runtime';
import { allowSignup, findUserByEmail, setTier } from './services/users';

const USAGE = `usage:
  npm run admin -- allow EMAIL                                   let EMAIL sign up (they had the live demo)
  npm run admin -- tier EMAIL free|basic|team [--trial-days N]   set a user's tier until billing exists`;

/** `npm run admin`: operator tasks on the configured database. */
async function main(args: string[]): Promise<number> {
  const [command, email, ...rest] = args;
  if (!command || !email?.includes('@')) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const { db } = await openRuntime(config, { info: () => {}, error: (m, e) => console.error(m, e) });
  try {
    if (command === 'allow') {
      await allowSignup(db, email);
      console.log(`${email} may now sign up.`);
      return 0;
    }
    if (command === 'tier') {
      const [tier, flag, days] = rest;
      if (tier !== 'free' && tier !== 'basic' && tier !== 'team') {
        console.error(USAGE);
        return 2;
      }
      let trialDays: number | null = null;
      if (flag !== undefined) {
        trialDays = Number(days);
        if (flag !== '--trial-days' || !Number.isInteger(trialDays) || trialDays < 0) {
          console.error(USAGE);
          return 2;
        }
      }
      const user = await findUserByEmail(db, email);
      if (!user) {
        console.error(`No account for ${email}.`);
        return 1;
      }
      await setTier(db, user.id, tier as Tier, trialDays, new Date());
      console.log(`${email} is now on ${tier}${trialDays === null ? '' : ` with a ${trialDays}-day trial`}.`);
      return 0;
    }
    console.error(USAGE);
    return 2;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
