import type { MatchResultData, ProductOffer } from '@lm/shared/schemas/matching';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** A Shenzhen employee who qualifies for several demo lenders. */
export const FORM = {
  adChannelCode: 'demo',
  isHuaWeiPhone: false,
  applyLimit: 2,
  job: 1,
  payoffForm: 1,
  socialSecurity: 2,
  housingFund: 2,
  insurance: 2,
  houseProperty: 2,
  carProperty: 1,
  sesameCredit: 4,
  creditInvestigation: 1,
  realName: '张三',
  identity: '110101199003074514',
  workCity: '深圳市',
  workCityCode: '440300',
};

/** Link types delivered through the lender's API (the leads the delivery worker sends). */
export const API_MODES = new Set([2, 3, 6, 7, 9]);

/** The offers of a match answer: the best one and the others (none when nothing matched). */
export const offersOf = (r: MatchResultData): ProductOffer[] =>
  r.id ? [r as ProductOffer, ...r.mayAuthProductList] : [];

/** The person behind `token` saves `form`: the answer (callers assert on it) and the offers in it. */
export async function saveForm(
  app: FastifyInstance,
  token: string,
  form: object = FORM,
): Promise<{ res: LightMyRequestResponse; offers: ProductOffer[] }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/user/info/save',
    payload: form,
    headers: { accesstoken: token },
  });
  const data = (JSON.parse(res.body) as { data: MatchResultData | null }).data;
  return { res, offers: data ? offersOf(data) : [] };
}

/**
 * The person behind `token` saves FORM and consents to every API-mode lender offered: the offers and
 * the consent's answer (callers assert on them).
 */
export async function consentToApiOffers(
  app: FastifyInstance,
  token: string,
): Promise<{ offers: ProductOffer[]; auth: LightMyRequestResponse }> {
  const offers = (await saveForm(app, token)).offers.filter((o) => API_MODES.has(o.linkType));
  const auth = await app.inject({
    method: 'PUT',
    url: '/api/user/info/auth',
    payload: { productIds: offers.map((o) => o.id) },
    headers: { accesstoken: token },
  });
  return { offers, auth };
}
