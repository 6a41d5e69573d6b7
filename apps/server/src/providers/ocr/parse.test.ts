import { idCardCheckChar } from '@lm/shared/validators/id-card';
import { describe, expect, it } from 'vitest';
import { findIdNumber, findName, parseIdCardText } from './parse.ts';

const withCheck = (first17: string) => `${first17}${idCardCheckChar(first17)}`;
const ID = withCheck('11010119900307451'); // 110101199003074514
const ID_X = withCheck('44030519851231001');

describe('findIdNumber', () => {
  it('reads the number from its line, spaces and label around it', () => {
    expect(ID).toBe('110101199003074514');
    expect(findIdNumber(`公民身份号码 ${ID}`)).toBe(ID);
    expect(findIdNumber(`公民 身份 号 码 1101 0119 9003 0745 14`)).toBe(ID);
    expect(findIdNumber(`民 身 ${ID}\n`)).toBe(ID);
  });

  it('maps look-alike letters and full-width digits to digits, x to X', () => {
    expect(findIdNumber('11O1O1199OO3O74514')).toBe(ID);
    expect(findIdNumber('１１０１０１１９９００３０７４５１４')).toBe(ID);
    expect(findIdNumber('l10101199003074514')).toBe(ID);
    expect(findIdNumber('公民 身份 号 码 ”10101199003074514')).toBe(ID);
    const x = ID_X.endsWith('X') ? ID_X : null;
    if (x) expect(findIdNumber(x.toLowerCase())).toBe(x);
  });

  it('prefers a candidate that passes the checks, else returns the shaped one for correction', () => {
    const wrongCheck = `${ID.slice(0, 17)}${ID[17] === '1' ? '2' : '1'}`;
    expect(findIdNumber(`${wrongCheck}\n公民身份号码 ${ID}`)).toBe(ID);
    expect(findIdNumber(wrongCheck)).toBe(wrongCheck);
    // inside a longer run of digits, the valid window is found
    expect(findIdNumber(`9${ID}7`)).toBe(ID);
  });

  it('answers null without an 18-character number', () => {
    expect(findIdNumber('出生 1990年3月7日')).toBeNull();
    expect(findIdNumber('11010119900307451')).toBeNull();
    expect(findIdNumber('')).toBeNull();
  });
});

describe('findName', () => {
  it('takes what follows the 姓名 label, with or without spaces', () => {
    expect(findName('姓名王小明\n性别男 民族汉')).toBe('王小明');
    expect(findName('姓名 王 小 明\n性 别 男')).toBe('王小明');
    expect(findName('姓 名  欧阳明月')).toBe('欧阳明月');
    expect(findName('姓名 买买提·艾力')).toBe('买买提·艾力');
  });

  it('stops at the next field when two lines were joined', () => {
    expect(findName('姓名 王小明 性别 男 民族 汉')).toBe('王小明');
  });

  it('takes the next line when the label stands alone', () => {
    expect(findName('姓名\n王小明\n性别 男')).toBe('王小明');
    expect(findName('姓名\n性别 男')).toBeNull();
  });

  it('without the label: the first Chinese line before the sex line, minus a misread label character', () => {
    const number = `\n公民身份号码 ${ID}`;
    expect(findName(`: 洗 王小明\n男 汉\n1990 年 3 月 7 日${number}`)).toBe('王小明');
    expect(findName(`: 洗 王小明\n男 汉\n民 身 ${ID}`)).toBe('王小明');
    expect(findName('处 名 王小明\n性 别 男')).toBe('王小明');
    expect(findName('处 名 李 四\n性 别 女')).toBe('李四');
    expect(findName(`王 小 明\n男 汉${number}`)).toBe('王小明');
    expect(findName(`王小明\n男 汉\n${ID}`)).toBe('王小明');
    expect(findName(`男 汉\n王小明\n${ID}`)).toBeNull();
  });

  it('guesses nothing from text that is not recognisably a card', () => {
    expect(findName('人全人\n')).toBeNull();
    expect(findName('王小明\n男 汉')).toBeNull();
  });

  it('answers null for text that is not a name', () => {
    expect(findName('姓名 Wang')).toBeNull();
    expect(findName('姓名 王')).toBeNull();
    expect(findName('')).toBeNull();
  });
});

describe('parseIdCardText', () => {
  it('reads both from the text of a card front', () => {
    const text = [
      '姓名 王小明',
      '性 别 男 民族 汉',
      '出 生 1990 年 3 月 7 日',
      '住址 北京 市 东城 区 景山 前 街 4 号',
      `公民 身份 号 码 ${ID}`,
    ].join('\n');
    expect(parseIdCardText(text)).toEqual({ name: '王小明', idNumber: ID });
  });
});
