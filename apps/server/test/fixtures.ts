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
