/** axe-core in the page: the WCAG 2 A and AA violations of a page as it stands, as one line each. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * axe-core's WCAG 2 A and AA violations on the page as it stands (the tool runs in the page through DevTools); with
 * `include`, those of the parts those selectors match.
 */
export async function accessibilityViolations(page: Page, include?: string[]): Promise<string[]> {
  const context = include ? JSON.stringify({ include: include.map((selector) => [selector]) }) : 'document';
  const violations = (await page.evaluate(
    `${axeSource};axe.run(${context}, { runOnly: ['wcag2a', 'wcag2aa'] }).then((r) => r.violations)`,
  )) as AxeViolation[];
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join(', ')}`,
  );
}
