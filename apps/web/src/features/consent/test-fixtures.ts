/** Shared test data of the consent feature's tests (imported by tests only). */
import type { ConsentedItem } from './consent-result';

/** A lender the server delivers to by API (spec §3 mode `api`), with its name and APR. */
export const API_CONSENT: ConsentedItem = {
  productId: '3',
  productName: '星河信用贷',
  lenderName: '星河消费金融有限公司',
  aprBps: 1800,
  consentId: 1,
  mode: 'api',
  thirdpartyTargetUrl: null,
};
