/**
 * The channel configuration a server-rendered landing or login page carries (issue 17.1): the server
 * rendered the page in this channel's skin, so the app starts with the same configuration instead of
 * asking h5Config again (and renders the same page over it, without a second paint).
 */
import type { H5Config } from '@lm/shared/channel';

export const INLINED_CHANNEL_ID = 'lm-channel';

export interface InlinedChannel {
  /** The channel the page was rendered for. */
  adChannelCode: string;
  /** Its h5Config answer (an A/B channel's: the arm the page shows). */
  config: H5Config;
  /** The route code of the link, as the server exchanged it. */
  route: { adRouteCode: string; adChannelCode: string; planTargetUrl: string | null } | null;
}

/** Reads (once) and removes the page's inlined channel; null on a page without one or unreadable. */
export function takeInlinedChannel(doc: Document = document): InlinedChannel | null {
  const element = doc.getElementById(INLINED_CHANNEL_ID);
  if (!element) return null;
  element.remove();
  try {
    const data = JSON.parse(element.textContent ?? '') as Partial<InlinedChannel> | null;
    if (!data || typeof data.adChannelCode !== 'string' || !data.config || typeof data.config !== 'object') {
      return null;
    }
    return { adChannelCode: data.adChannelCode, config: data.config, route: data.route ?? null };
  } catch {
    return null;
  }
}
