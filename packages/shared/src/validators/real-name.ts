/** Chinese name as printed on the ID card: 2–20 Chinese characters, the middle dot of minority names allowed. */
export const REAL_NAME_PATTERN = /^[\u4e00-\u9fa5·]{2,20}$/;
export const REAL_NAME_MSG = '真实姓名应为2-20个汉字（可含·）';
