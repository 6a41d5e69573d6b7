/**
 * What the person typed on the identity page, or what the reading of their ID card filled in, before it
 * was checked: kept in this tab's sessionStorage (like the application form's name and ID number, issue
 * 16.3), so that a reload does not take it away — Android often reloads the page when the camera app
 * returns a photo of the card, and the person would have to photograph it again. Under the form drafts'
 * prefix (lib/form-drafts.ts): a re-login after an expired session finds it, another person's login
 * removes it. Forgotten when the face check has passed.
 */
import { identityDraftKey, personDraft } from '@/lib/form-drafts';

/** What the ID-card reading filled in, with the server's note (to check every character). */
export interface OcrFill {
  fields: ('realName' | 'identity')[];
  note: string;
  valid: boolean;
}

export interface IdentityDraft {
  realName?: string;
  identity?: string;
  /** Present when the fields were filled from a photo of the card. */
  ocr?: OcrFill;
}

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value.slice(0, max) : undefined;

function ocrOf(value: unknown): OcrFill | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Partial<Record<keyof OcrFill, unknown>>;
  if (typeof v.note !== 'string' || typeof v.valid !== 'boolean' || !Array.isArray(v.fields))
    return undefined;
  const fields = v.fields.filter((f): f is OcrFill['fields'][number] => f === 'realName' || f === 'identity');
  return { fields, note: v.note, valid: v.valid };
}

/** The well-formed part of a stored (or to be stored) draft. */
function cleanDraft(raw: unknown): IdentityDraft {
  if (!raw || typeof raw !== 'object') return {};
  const v = raw as Record<string, unknown>;
  const draft: IdentityDraft = {};
  const realName = text(v.realName, 50);
  const identity = text(v.identity, 18);
  const ocr = ocrOf(v.ocr);
  if (realName) draft.realName = realName;
  if (identity) draft.identity = identity;
  if (ocr) draft.ocr = ocr;
  return draft;
}

const identityDraft = personDraft(identityDraftKey, cleanDraft);
/** The person's draft; empty when there is none or it is unreadable. */
export const readIdentityDraft = identityDraft.read;
/** Keeps the draft (removes it when it holds nothing). */
export const saveIdentityDraft = identityDraft.save;
export const forgetIdentityDraft = identityDraft.forget;
