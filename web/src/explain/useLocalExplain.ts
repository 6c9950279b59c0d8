/**
 * While a screen holds values typed and not saved yet, the explain panel reads the browser's workbook, which holds
 * them, instead of asking the API, which explains the saved plan: the panel then says what the screen shows.
 */
import { explainArea, type PlanListItem } from '@topline/contract';
import { useEffect } from 'react';
import { levelOf } from '../plan/access';
import { caseIndexIn, type EngineSession } from '../plan/engineSession';
import { explainLocally, type LocalExplain } from './localExplain';

/** Explains from `engine` while `active` (and the workbook is at hand); the API answers otherwise. */
export function useLocalExplain(active: boolean, engine: EngineSession | null, plan: PlanListItem): void {
  useEffect(() => {
    if (!active || !engine) return;
    const source: LocalExplain = (target, lang) => {
      // A figure read against a snapshot needs the snapshot's workbook: the API's.
      if (target.snapshotId !== undefined) return null;
      const caseIndex = target.caseId === undefined ? 0 : caseIndexIn(engine, target.caseId);
      if (caseIndex < 0) return null;
      try {
        const answer = engine.explain({
          caseIndex,
          year: target.year,
          period: target.period,
          key: target.key,
          view: target.view ?? 'estimate',
          language: lang,
        });
        // An input opens its own explanation only where its area is open to the caller, as the API answers.
        const mayRead = (key: string) => {
          const area = explainArea(key);
          return levelOf(plan, area) !== 'no_access' && !plan.locked.includes(area as never);
        };
        return {
          ...answer,
          inputs: answer.inputs.map((i) => ({ ...i, explainable: i.explainable && mayRead(i.key) })),
        };
      } catch {
        return null;
      }
    };
    explainLocally(source);
    return () => explainLocally(null);
  }, [active, engine, plan]);
}
