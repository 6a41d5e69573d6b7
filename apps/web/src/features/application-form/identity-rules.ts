import { checkIdCard, ID_CARD_MESSAGES } from '@lm/shared/validators/id-card';
import { REAL_NAME_PATTERN } from '@lm/shared/validators/real-name';
import type { FormItemProps } from 'antd-mobile/es/components/form';

type Rules = NonNullable<FormItemProps['rules']>;

/** Chinese name as printed on the ID card (the middle dot of minority names allowed). */
export const REAL_NAME_RULES: Rules = [
  { required: true, message: '请输入真实姓名' },
  { pattern: REAL_NAME_PATTERN, message: '请输入身份证上的中文姓名' },
];

/** National ID number checked with the shared GB 11643 validator (spec §5). */
export const ID_CARD_RULES: Rules = [
  { required: true, message: '请输入身份证号' },
  {
    validator: (_, value: string | undefined) => {
      if (!value) return Promise.resolve();
      const problem = checkIdCard(value);
      return problem ? Promise.reject(new Error(ID_CARD_MESSAGES[problem])) : Promise.resolve();
    },
  },
];

export const normalizeIdCard = (value: string) => value.replace(/\s/g, '').toUpperCase();
