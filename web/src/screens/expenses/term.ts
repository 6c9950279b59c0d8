import { afterMonth } from '../../format/input';

/** Why a cost item's term cannot be saved: a year or month not given in full, or an end before the start. */
export type TermProblem = 'incomplete' | 'order';

/** The problem of a term as typed (four-digit years, months 1 to 12, the end not before the start), else null. */
export function termProblem(term: {
  startYear: string;
  startMonth: string;
  endYear: string;
  endMonth: string;
}): TermProblem | null {
  const year = (text: string) => /^\d{4}$/.test(text);
  const month = (text: string) => /^\d{1,2}$/.test(text) && Number(text) >= 1 && Number(text) <= 12;
  if (!year(term.startYear) || !month(term.startMonth) || !year(term.endYear) || !month(term.endMonth))
    return 'incomplete';
  const start = { year: Number(term.startYear), month: Number(term.startMonth) };
  const end = { year: Number(term.endYear), month: Number(term.endMonth) };
  return afterMonth(start, end) ? 'order' : null;
}
