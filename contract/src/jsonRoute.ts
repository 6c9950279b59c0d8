import type { z } from 'zod';
import type { Needs, Route } from './route';

/**
 * A JSON call of a topic's file (`todos.ts`, `history.ts`, `googleSheets.ts`), typed as the route table's `route` types
 * its entries: method, path and needs kept as literal types, a JSON body and a JSON answer, and the HTTP status of a
 * success when it is not 200.
 */
export const jsonRoute = <
  M extends 'GET' | 'POST',
  P extends string,
  Request extends z.ZodType,
  Answer extends z.ZodType,
  N extends Needs<z.output<Request>>,
>(
  method: M,
  path: P,
  request: Request,
  answer: Answer,
  needs: N,
  status?: number,
) =>
  ({
    method,
    path,
    request,
    answer,
    needs,
    body: undefined,
    file: undefined,
    ...(status ? { status } : {}),
  }) as Route<Request, Answer> & { method: M; path: P; needs: N; body: undefined; file: undefined };
