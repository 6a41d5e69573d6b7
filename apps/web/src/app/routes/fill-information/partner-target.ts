import { useLocation } from 'react-router';
import { checkInlineUrl } from '@/features/consent/allowed-url';
import { vouchedPartnerUrls } from '@/features/consent/consent-result';
import { readQueryOptions, stringOption } from '@/features/consent/query-options';
import { useH5Config } from '@/lib/channel/store';

/**
 * The lender named in the page's query (`productName`, default 「合作机构」) and its page (`url` or
 * `thirdpartyTargetUrl`), checked against the channel's allowed hosts and the partner URLs the
 * server vouched for.
 */
export function usePartnerTarget() {
  const config = useH5Config();
  const options = readQueryOptions(useLocation().search);
  const productName = stringOption(options.productName) ?? '合作机构';
  const target = checkInlineUrl(
    stringOption(options.url) ?? stringOption(options.thirdpartyTargetUrl),
    config.allowedHosts,
    vouchedPartnerUrls(),
  );
  return { productName, target };
}
