/**
 * Content rules (pure): filling an agreement's {{placeholders}} with the operator's record, choosing the version in
 * force, and the plain-text form the protocol calls serve. No I/O here.
 */
import type { AgreementBody } from '../../db/schema.ts';
import type { Operator } from '../operators/rules.ts';

/** Every placeholder an agreement text may use. A text using any other fails rendering (and the tests). */
export const PLACEHOLDERS = [
  'operatorName',
  'operatorShortName',
  'operatorAddress',
  'operatorLicence',
  'operatorServicePhone',
  'operatorEmail',
  'deletionWorkingDays',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type TemplateVars = Record<Placeholder, string>;

/** The placeholders' values: the operator the page names (ADR 057) and the deletion deadline. */
export function templateVars(op: Operator, deletionWorkingDays: number): TemplateVars {
  return {
    operatorName: op.companyName,
    operatorShortName: op.shortName,
    operatorAddress: op.address,
    operatorLicence: op.filingNumber,
    operatorServicePhone: op.servicePhone,
    operatorEmail: op.email,
    deletionWorkingDays: String(deletionWorkingDays),
  };
}

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g;

/** The placeholder names a text uses, in order of first use. */
export function placeholdersIn(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) if (!names.includes(m[1]!)) names.push(m[1]!);
  return names;
}

/**
 * Fills every {{name}} of `text`. An unknown name, or a "{{" / "}}" that is not a placeholder, is an
 * error: a published agreement must never show template syntax.
 */
export function fillPlaceholders(text: string, vars: TemplateVars): string {
  const out = text.replace(PLACEHOLDER, (_, name: string) => {
    if (!Object.hasOwn(vars, name)) throw new TemplateError(`未知的占位符 {{${name}}}`);
    return vars[name as Placeholder];
  });
  if (out.includes('{{') || out.includes('}}')) throw new TemplateError('文本中有未闭合的占位符');
  return out;
}

/** An agreement body with every placeholder filled. */
export function renderAgreementBody(body: AgreementBody, vars: TemplateVars): AgreementBody {
  return {
    effectiveDate: fillPlaceholders(body.effectiveDate, vars),
    intro: fillPlaceholders(body.intro, vars),
    sections: body.sections.map((s) => ({
      heading: fillPlaceholders(s.heading, vars),
      paragraphs: s.paragraphs.map((p) => fillPlaceholders(p, vars)),
    })),
  };
}

export interface VersionRow {
  version: string;
  effectiveAt: Date;
  createdAt?: Date;
}

/** Newest first: later effectiveAt, then later createdAt, then the larger version string. */
export function compareVersionsDesc(a: VersionRow, b: VersionRow): number {
  const byEffective = b.effectiveAt.getTime() - a.effectiveAt.getTime();
  if (byEffective !== 0) return byEffective;
  const byCreated = (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0);
  if (byCreated !== 0) return byCreated;
  return b.version.localeCompare(a.version);
}

/** The version served at `now`: the newest whose effectiveAt has passed; null when none has. */
export function pickInForce<T extends VersionRow>(rows: readonly T[], now: Date): T | null {
  const due = rows.filter((r) => r.effectiveAt.getTime() <= now.getTime());
  if (due.length === 0) return null;
  return [...due].sort(compareVersionsDesc)[0]!;
}

export type VersionState = 'in_force' | 'scheduled' | 'superseded';

/** Each version's state at `now`, newest first. */
export function versionStates<T extends VersionRow>(
  rows: readonly T[],
  now: Date,
): { row: T; state: VersionState }[] {
  const current = pickInForce(rows, now);
  return [...rows].sort(compareVersionsDesc).map((row) => ({
    row,
    state:
      row === current ? 'in_force' : row.effectiveAt.getTime() > now.getTime() ? 'scheduled' : 'superseded',
  }));
}

/**
 * An agreement as one plain text (what GET /api/user/info/protocol/:code serves as `content`): the title
 * with version and date, the introduction, then each section.
 */
export function agreementPlainText(title: string, version: string, body: AgreementBody): string {
  const lines = [`《${title}》`, `版本：${version}　生效日期：${body.effectiveDate}`, '', body.intro];
  for (const s of body.sections) {
    lines.push('', s.heading, ...s.paragraphs);
  }
  return lines.join('\n');
}

/** Offset of a 1-based page. */
export function pageOffset(page: number, pageSize: number): number {
  return (Math.max(1, page) - 1) * pageSize;
}
