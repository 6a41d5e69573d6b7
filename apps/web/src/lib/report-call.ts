/**
 * A report the page does not wait for (a product seen, a partner page opened): silent,
 * not cancelled by the next call to the same path, sent even while the page unloads.
 */
export const REPORT_OPTIONS = { silent: true, cancelPrevious: false, keepalive: true } as const;

/** The report's answer dropped: it never throws, whatever the network or the server did. */
export function settled(report: Promise<unknown>): Promise<void> {
  return report.then(
    () => undefined,
    () => undefined,
  );
}
