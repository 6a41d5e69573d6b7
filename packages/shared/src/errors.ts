/**
 * The error catalogue (spec §8 and §6). Every answer of the API is the envelope
 * `{code, msg, data}`; code 200 is success. `status` is the HTTP status sent with it.
 */
export const SUCCESS_CODE = 200 as const;

export const ErrorCode = {
  /** Token missing or unknown. */
  UNAUTHORIZED: 401,
  /** Token expired or revoked (logout, cancellation). */
  TOKEN_EXPIRED: 1005,
  /** The account logged in somewhere else; this token was replaced. */
  LOGGED_IN_ELSEWHERE: 1006,
  FORBIDDEN: 403,
  ACCOUNT_FORBIDDEN: 1007,
  /**
   * A code request under pressure (the phone's or the address's cap reached) without a known device: `data.challenge`
   * is an ALTCHA proof-of-work challenge; solve it and repeat the request with `altcha` (ADR 055).
   */
  CHALLENGE_REQUIRED: 1008,
  WRONG_CREDENTIALS: 1000,
  VERIFICATION_CODE_REQUIRED: 1001,
  LOGIN_FAILED: 1002,
  ENCRYPTED_MOBILE_INVALID: 1003,
  SMS_SEND_FAILED: 1004,
  VALIDATION_FAILED: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  /** Matching or consent needs a saved application form first. */
  FORM_NOT_SUBMITTED: 1101,
  /** A consent names a product that is not (or no longer) offered to the person. */
  OFFER_UNAVAILABLE: 1102,
  /** A partner callback or delivery with a bad signature. */
  BAD_SIGNATURE: 1103,
  /** The channel's credit process (link type 3) needs a passed face verification before matching. */
  FACE_NOT_PASSED: 1104,
  /** A lender's outcome that cannot follow the lead's outcome so far (a declined lead funded, issue 47.4). */
  OUTCOME_NOT_ALLOWED: 1105,
  /** A lender's return of a lead refused (issue 48.4): not delivered, outside the window, twice, over the rate; or a staff review of a return that waits for none. `data.reason` says which. */
  RETURN_NOT_ALLOWED: 1106,
  /** A month of the ledger already closed, or one that may not be booked into (issue 48.5); msg says why. */
  MONTH_CLOSED: 1107,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

interface ErrorDef {
  status: number;
  msg: string;
}

/** Default message and HTTP status per code. Messages are what a person reads in a toast. */
export const errorCatalogue: Record<ErrorCodeName, ErrorDef> = {
  UNAUTHORIZED: { status: 401, msg: '授权已过期，请重新登录' },
  TOKEN_EXPIRED: { status: 401, msg: '授权已过期，请重新登录' },
  LOGGED_IN_ELSEWHERE: { status: 401, msg: '账号已在其他地方登录，请重新登录' },
  FORBIDDEN: { status: 403, msg: '没有权限执行此操作' },
  ACCOUNT_FORBIDDEN: { status: 403, msg: '账号已被禁用，请联系管理员' },
  CHALLENGE_REQUIRED: { status: 429, msg: '获取验证码过于频繁，请完成安全验证后再获取验证码' },
  WRONG_CREDENTIALS: { status: 401, msg: '登录名或密码错误' },
  VERIFICATION_CODE_REQUIRED: { status: 400, msg: '请输入验证码' },
  LOGIN_FAILED: { status: 400, msg: '登录失败，请检查验证码' },
  ENCRYPTED_MOBILE_INVALID: { status: 400, msg: '链接中的手机号无效或已过期，请手动输入手机号' },
  SMS_SEND_FAILED: { status: 502, msg: '短信发送失败，请稍后重试' },
  VALIDATION_FAILED: { status: 400, msg: '请求参数有误' },
  NOT_FOUND: { status: 404, msg: '请求的资源不存在' },
  METHOD_NOT_ALLOWED: { status: 405, msg: '不支持的请求方式' },
  PAYLOAD_TOO_LARGE: { status: 413, msg: '请求内容过大' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, msg: '不支持的请求内容类型，请使用 JSON' },
  RATE_LIMITED: { status: 429, msg: '操作过于频繁，请稍后再试' },
  SERVER_ERROR: { status: 500, msg: '服务器错误' },
  SERVICE_UNAVAILABLE: { status: 503, msg: '服务暂时不可用，请稍后重试' },
  FORM_NOT_SUBMITTED: { status: 409, msg: '请先填写并提交申请资料' },
  OFFER_UNAVAILABLE: { status: 409, msg: '所选机构已不在您的匹配结果中，请刷新后重试' },
  BAD_SIGNATURE: { status: 401, msg: '签名校验失败' },
  FACE_NOT_PASSED: { status: 409, msg: '请先完成人脸认证' },
  OUTCOME_NOT_ALLOWED: { status: 409, msg: '该线索的结果不能这样变更' },
  RETURN_NOT_ALLOWED: { status: 409, msg: '该线索不能退回' },
  MONTH_CLOSED: { status: 409, msg: '该月份已关账' },
};

/** Codes after which the client logs the person out and sends them to /getQuota. */
export const LOGOUT_CODES: readonly number[] = [
  ErrorCode.UNAUTHORIZED,
  ErrorCode.TOKEN_EXPIRED,
  ErrorCode.LOGGED_IN_ELSEWHERE,
];

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export interface FieldError {
  field: string;
  message: string;
}
