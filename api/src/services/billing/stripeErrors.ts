import { badRequest, unavailable } from '@topline/contract';
import type { Logger } from '../../logger';

/**
 * Stripe's failures as the wire's errors: a refused card is the user's to fix (400); anything else (Stripe out of
 * reach, a key or a price Stripe does not know) is the operator's (503), logged by type and code only: a Stripe
 * message can carry amounts.
 */
export async function guard<T>(logger: Logger, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isStripeError(error)) throw error;
    if (error.type === 'StripeCardError') throw badRequest({ card: 'the card was declined; use another card' });
    logger.error(`billing: Stripe refused a call (${error.type} ${error.code ?? ''} ${error.requestId ?? ''})`);
    throw unavailable('billing is not available now; try again later');
  }
}

function isStripeError(error: unknown): error is { type: string; code?: string; requestId?: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { type?: unknown }).type === 'string' &&
    (error as { type: string }).type.startsWith('Stripe')
  );
}
