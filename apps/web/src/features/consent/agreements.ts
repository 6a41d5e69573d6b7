import type { H5Config } from '@lm/shared/channel';

type AgreementLink = H5Config['agreements'][number];

const FALLBACK_TITLES: Record<string, string> = {
  'information-agreement': '个人信息授权书',
  'info-audit-agreement': '信息审核授权书',
  'audit-agreement-privacy': '审核隐私协议',
  'audit-agreement-contact': '联系人授权协议',
  'jkr-general-agreement': '借款人通用协议',
  'jkr-student-agreement': '非在校学生承诺函',
};

/** The channel's agreement links for `keys`, in that order (the channel may rename them). */
export function pickAgreements(all: readonly AgreementLink[], keys: readonly string[]): AgreementLink[] {
  return keys.map(
    (key) => all.find((a) => a.key === key) ?? { key, title: FALLBACK_TITLES[key] ?? key, path: `/${key}` },
  );
}
