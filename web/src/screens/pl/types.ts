import type { AnswerAt } from '../../api/client';

/** GET /pl/retrieve's data: every case's P&L by year, its growth model and the chart colours. */
export type PlAnswer = AnswerAt<'/pl/retrieve'>;
export type PlCase = PlAnswer['values'][number];
