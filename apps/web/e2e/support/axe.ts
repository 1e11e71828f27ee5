import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core on the page as it is now (issue 29): the WCAG 2.0, 2.1 and 2.2 A and AA rules. A serious
 * or critical violation fails the journey with one readable line per element (rule, impact, the
 * element and what axe says to fix); minor and moderate ones are returned for the caller to print.
 */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

export interface AxeFinding { rule: string; impact: string; target: string; summary: string }

export async function axeFindings(page: Page, include?: string): Promise<AxeFinding[]> {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations.flatMap((v) => v.nodes.map((n) => ({
    rule: v.id,
    impact: n.impact ?? v.impact ?? 'unknown',
    target: n.target.map(String).join(' > '),
    summary: (n.failureSummary ?? v.help).replace(/\s+/g, ' ').trim(),
  })));
}

/** Fails on any serious or critical violation; `where` names the screen, size and language in the message. */
/** `include`: only this part (an open dialog: the page under it was checked on its own). */
export async function expectNoSeriousAxeViolations(page: Page, where: string, include?: string): Promise<AxeFinding[]> {
  const started = Date.now();
  const findings = await axeFindings(page, include);
  if (process.env.AXE_TIMES) console.log(`axe ${where}: ${Date.now() - started} ms`);
  const serious = findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
  const list = serious.map((f) => `  [${f.impact}] ${f.rule} at ${f.target}: ${f.summary}`).join('\n');
  expect(serious, `axe on ${where}: ${serious.length} serious/critical violation(s)\n${list}`).toEqual([]);
  return findings;
}
