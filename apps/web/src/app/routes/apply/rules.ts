import { maskIdCard } from '@lm/shared/mask';

/**
 * Whether the ID number read off the card matches the one in the form draft (which the server shows
 * masked, 110***********002X): null when either is missing.
 */
export function matchesDraft(ocrIdentity: string | null, draftMasked: string | undefined): boolean | null {
  if (!ocrIdentity || !draftMasked) return null;
  return maskIdCard(ocrIdentity.trim().toUpperCase()) === draftMasked.trim().toUpperCase();
}

export type ResultState = 'draft' | 'submitted' | 'authorized';

/** The apply result page's state for a submit status (spec §3: 0 unsubmitted, 1 submitted, 10 authorized). */
export function resultStateOf(submitStatus: number): ResultState {
  if (submitStatus === 10) return 'authorized';
  if (submitStatus === 1) return 'submitted';
  return 'draft';
}
