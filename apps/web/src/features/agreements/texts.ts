/**
 * Agreement texts shown at registration. Versioned copies in the database and the remaining agreement
 * pages of spec §2 arrive with the content issue; these two are the ones the login page asks to accept.
 */
export interface AgreementSection {
  heading: string;
  paragraphs: string[];
}

export interface AgreementText {
  title: string;
  version: string;
  effectiveDate: string;
  intro: string;
  sections: AgreementSection[];
}

export const REGISTER_AGREEMENT: AgreementText = {
  title: '注册协议',
  version: '2026-11-22',
  effectiveDate: '2026年11月22日',
  intro:
    '欢迎使用本平台。请您在注册前仔细阅读本协议。您勾选“我已阅读并同意”并完成手机号验证，即表示您已充分理解并同意本协议的全部内容。',
  sections: [
    {
      heading: '一、服务内容',
      paragraphs: [
        '本平台是贷款信息撮合服务平台：根据您填写的信息，为您展示可能适合您的持牌金融机构或其合作机构的贷款产品，并在您逐一授权后将您的申请信息提供给您选择的机构。',
        '本平台不直接发放贷款，不向您收取任何贷前费用。贷款额度、利率、期限及放款时间以合作机构的实际审批结果为准。',
      ],
    },
    {
      heading: '二、账户注册与安全',
      paragraphs: [
        '您以本人实名手机号及短信验证码注册和登录。同一账户同一时间只能在一处登录，在其他设备登录后原登录将失效。',
        '验证码仅用于本人登录，请勿告知他人。本平台工作人员不会向您索要验证码。',
        '您可以随时在“我的—注销账户”中注销账户。注销后，您的手机号等个人信息将被删除或匿名化处理，且无法恢复。',
      ],
    },
    {
      heading: '三、用户义务',
      paragraphs: [
        '您应保证填写的信息真实、准确、完整，不得冒用他人身份或提交虚假资料。',
        '您应理性借贷，根据个人还款能力合理申请，避免逾期。',
      ],
    },
    {
      heading: '四、个人信息保护',
      paragraphs: [
        '我们按照《隐私政策》收集、使用、存储和保护您的个人信息。向任何合作机构提供您的信息前，我们都会单独征得您的同意。',
      ],
    },
    {
      heading: '五、协议的变更与适用法律',
      paragraphs: [
        '本协议如有变更，我们会在页面显著位置公告，并在您下次登录时请您重新确认。',
        '本协议适用中华人民共和国法律。因本协议产生的争议，双方应友好协商解决；协商不成的，任何一方可向平台运营方所在地有管辖权的人民法院提起诉讼。',
      ],
    },
  ],
};

export const PRIVACY_AGREEMENT: AgreementText = {
  title: '隐私政策',
  version: '2026-11-22',
  effectiveDate: '2026年11月22日',
  intro:
    '我们深知个人信息对您的重要性，并依据《中华人民共和国个人信息保护法》等法律法规处理您的个人信息。本政策说明我们收集哪些信息、为何收集以及您享有的权利。',
  sections: [
    {
      heading: '一、我们收集的信息',
      paragraphs: [
        '注册登录：手机号码及短信验证码，用于创建账户和验证身份。',
        '设备与访问信息：设备品牌、浏览器标识、IP 地址及访问渠道，用于保障账户安全、防范短信被滥用和统计服务效果。',
        '您主动填写的申请信息（如借款金额、所在城市、职业等），仅在您申请匹配产品时收集。',
      ],
    },
    {
      heading: '二、我们如何使用信息',
      paragraphs: [
        '为您匹配合适的贷款产品；保障账户与交易安全；在法律法规要求的范围内履行义务。',
        '我们不会将您的信息用于与上述目的无关的用途。',
      ],
    },
    {
      heading: '三、对外提供',
      paragraphs: [
        '只有在您针对某一具体机构单独勾选同意后，我们才会将该页面列明的信息项提供给该机构，并记录您同意的时间与协议版本。您可以不同意向任何机构提供信息。',
        '除法律法规另有规定外，我们不会向其他任何第三方出售或提供您的个人信息。',
      ],
    },
    {
      heading: '四、存储与保护',
      paragraphs: [
        '您的个人信息存储于中华人民共和国境内。手机号、姓名、身份证号等敏感信息采用加密方式存储，在页面和后台中以脱敏形式展示，并且不会以明文写入系统日志。',
        '我们仅在实现处理目的所必需的期限内保存您的信息；超出期限或您注销账户后，我们将删除或匿名化处理。',
      ],
    },
    {
      heading: '五、您的权利',
      paragraphs: [
        '您有权查阅、复制、更正您的个人信息，撤回对某一机构的授权，以及注销账户。您可以在“我的”页面中操作，或通过页面底部的联系方式与我们联系。',
      ],
    },
    {
      heading: '六、未成年人',
      paragraphs: ['本平台服务仅面向年满18周岁的成年人。我们不会在知情的情况下收集未成年人的个人信息。'],
    },
  ],
};
