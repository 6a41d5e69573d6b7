import { describe, expect, it } from 'vitest';
import '../index.ts'; // zh-CN messages, as on the server
import { CONTACT_NAME_PATTERN } from '../credit-info.ts';
import { REAL_NAME_PATTERN } from './application.ts';
import { creditInfoComplete, creditInfoPatchBody } from './credit-info.ts';

const a = { relationship: '0', name: '张三', phone: '13800000001' };
const b = { relationship: '3', name: '阿依古丽·买买提', phone: '13800000002' };
const full = {
  education: 3,
  maritalStatus: 1,
  annualIncome: 2,
  occupation: 11,
  loanPurpose: 5,
  residentialRegion: '310100',
  residentialAddress: '浦东新区世纪大道1号',
  companyName: '某某科技有限公司',
  companyRegion: '810100',
  companyAddress: '中环皇后大道中1号',
  contacts: [a, b],
};

function problem(input: unknown): { path: string; message: string } | null {
  const r = creditInfoPatchBody.safeParse(input);
  if (r.success) return null;
  const first = r.error.issues[0]!;
  return { path: first.path.join('.'), message: first.message };
}

describe('creditInfoPatchBody', () => {
  it('accepts the whole record and any subset; trims; drops empty values and unknown keys', () => {
    expect(creditInfoPatchBody.parse(full)).toEqual(full);
    expect(creditInfoComplete.parse(full)).toEqual(full);
    expect(
      creditInfoPatchBody.parse({
        education: 0,
        companyName: '  某某公司 ',
        companyAddress: '',
        residentialAddress: null,
        auditStatus: 2,
        step: 'DONE',
      }),
    ).toEqual({ education: 0, companyName: '某某公司' });
    expect(creditInfoPatchBody.parse({})).toEqual({});
    expect(
      creditInfoPatchBody.parse({ contacts: [{ ...a, name: ' 张三 ', phone: ' 13800000001' }, b] }),
    ).toEqual({ contacts: [a, b] });
  });

  it('refuses each enumeration outside spec §3 codes, naming the field in Chinese', () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ education: 6 }, 'education', /^最高学历选项无效，可选：0、1、2、3、4、5$/],
      [{ education: -1 }, 'education', /最高学历选项无效/],
      [{ maritalStatus: 5 }, 'maritalStatus', /婚姻状况选项无效/],
      [{ annualIncome: 4 }, 'annualIncome', /年收入选项无效/],
      [{ occupation: 12 }, 'occupation', /所属行业选项无效/],
      [{ occupation: 1.5 }, 'occupation', /所属行业选项无效/],
      [{ loanPurpose: '1' }, 'loanPurpose', /借款用途选项无效/],
    ];
    for (const [input, path, message] of cases) {
      expect(problem(input), JSON.stringify(input)).toMatchObject({ path });
      expect(problem(input)!.message).toMatch(message);
    }
  });

  it('refuses region codes that are not cities of the region table', () => {
    expect(problem({ residentialRegion: '31010' })).toEqual({
      path: 'residentialRegion',
      message: '居住城市编码应为6位数字',
    });
    expect(problem({ companyRegion: '440000' })).toEqual({
      path: 'companyRegion',
      message: '单位所在城市编码不在行政区划表中，请重新选择',
    });
    expect(problem({ companyRegion: '999900' })?.message).toMatch(/不在行政区划表中/);
    expect(problem({ residentialRegion: 310100 })?.message).toBe('居住城市编码必须是文本');
  });

  it('refuses too short, too long or multi-line text', () => {
    expect(problem({ companyName: '某' })).toEqual({ path: 'companyName', message: '单位名称至少2个字' });
    expect(problem({ companyName: '某'.repeat(51) })?.message).toBe('单位名称最多50个字');
    expect(problem({ residentialAddress: '路'.repeat(101) })?.message).toBe('居住详细地址最多100个字');
    expect(problem({ companyAddress: '南山区\n科技园' })?.message).toBe('单位详细地址不能包含换行或尖括号');
    expect(problem({ residentialAddress: '<script>alert(1)</script>' })?.message).toMatch(/尖括号/);
  });

  it('contacts: exactly two complete entries', () => {
    for (const contacts of [[], [a], [a, b, a], 'x', {}]) {
      expect(problem({ contacts }), JSON.stringify(contacts)).toEqual({
        path: 'contacts',
        message: '请填写两位紧急联系人',
      });
    }
    expect(problem({ contacts: [a, null] })).toEqual({ path: 'contacts.1', message: '请填写联系人2' });
    expect(problem({ contacts: [a, { name: '李四', phone: '13800000002' }] })).toEqual({
      path: 'contacts.1.relationship',
      message: '请选择联系人2与本人关系',
    });
  });

  it('contacts: relationship codes are the strings 0–4', () => {
    for (const relationship of ['5', 0, '父母']) {
      expect(problem({ contacts: [{ ...a, relationship }, b] })).toEqual({
        path: 'contacts.0.relationship',
        message: '联系人1与本人关系选项无效，可选：0、1、2、3、4',
      });
    }
  });

  it('contacts: Chinese names (as the real name), valid phones', () => {
    expect(CONTACT_NAME_PATTERN.source).toBe(REAL_NAME_PATTERN.source);
    for (const name of ['张', 'Zhang San', '张三3', '张'.repeat(21)]) {
      expect(problem({ contacts: [a, { ...b, name }] }), name).toEqual({
        path: 'contacts.1.name',
        message: '联系人2姓名应为2-20个汉字（可含·）',
      });
    }
    expect(problem({ contacts: [{ ...a, name: '' }, b] })).toEqual({
      path: 'contacts.0.name',
      message: '请填写联系人1姓名',
    });
    expect(problem({ contacts: [a, { ...b, phone: ' ', relationship: '' }] })).toEqual({
      path: 'contacts.1.relationship',
      message: '请选择联系人2与本人关系',
    });
    expect(problem({ contacts: [a, { ...b, phone: ' ' }] })).toEqual({
      path: 'contacts.1.phone',
      message: '请填写联系人2手机号',
    });
    for (const phone of ['12800000001', '1380000000', '138000000011', 'abc']) {
      expect(problem({ contacts: [{ ...a, phone }, b] }), phone).toEqual({
        path: 'contacts.0.phone',
        message: '联系人1手机号格式不正确',
      });
    }
  });

  it('contacts: the same phone twice is refused on the second', () => {
    expect(problem({ contacts: [a, { ...b, phone: a.phone }] })).toEqual({
      path: 'contacts.1.phone',
      message: '联系人2手机号与联系人1相同，请填写两位不同的联系人',
    });
  });

  it('refuses a body that is not an object', () => {
    expect(problem([full])?.message).toBe('请求数据必须是对象');
  });
});
