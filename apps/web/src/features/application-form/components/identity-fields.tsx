import Form from 'antd-mobile/es/components/form';
import Input from 'antd-mobile/es/components/input';
import { ID_CARD_RULES, normalizeIdCard, REAL_NAME_RULES } from '../identity-rules';

/** The name and national ID number as on the ID card (the apply and credit-process identity pages). */
export function IdentityFields() {
  return (
    <>
      <Form.Item name="realName" label="姓名" rules={REAL_NAME_RULES}>
        <Input placeholder="请输入身份证上的姓名" maxLength={20} clearable />
      </Form.Item>
      <Form.Item name="identity" label="身份证号" normalize={normalizeIdCard} rules={ID_CARD_RULES}>
        <Input placeholder="请输入18位身份证号" maxLength={18} clearable />
      </Form.Item>
    </>
  );
}
