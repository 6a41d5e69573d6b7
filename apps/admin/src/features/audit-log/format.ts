export const ACTION_TEXT: Record<string, string> = {
  create: '新建',
  update: '修改',
  status: '状态变更',
  reveal: '查看明文',
  retry: '重新发送',
  discard: '放弃发送',
  'rotate-secret': '轮换密钥',
  delete: '删除',
  'login-lock': '登录锁定',
};

export const ACTION_COLOR: Record<string, string> = {
  reveal: 'orange',
  discard: 'red',
  delete: 'red',
  'rotate-secret': 'purple',
  'login-lock': 'red',
  create: 'green',
  retry: 'blue',
};

export const ENTITY_TEXT: Record<string, string> = {
  channel: '渠道',
  partner: '机构',
  product: '产品',
  lead: '线索',
  user: '用户',
  staff: '员工',
  notice: '机构通知',
};

export const actionText = (a: string) => ACTION_TEXT[a] ?? a;
export const entityText = (e: string) => ENTITY_TEXT[e] ?? e;

/** Personal-data fields a reveal names. */
export const REVEAL_FIELD_TEXT: Record<string, string> = {
  mobile: '手机号',
  realName: '真实姓名',
  identity: '身份证号',
  contacts: '紧急联系人',
  upload: '上传的图片',
};
