import { codeZeroVerdict, type PlatformAdapter } from './types.ts';

/**
 * Tencent (腾讯广告, DataNexus) `POST /v1.3/user_actions/add?access_token=…&timestamp=<s>&nonce=…` with
 * `{account_id, user_action_set_id, actions: [{action_time: <s>, action_type, trace: {click_id}, action_param?:
 * {value}}]}` — the value in fen. Accepted: `code: 0`.
 */
export const tencent: PlatformAdapter = {
  origin: 'https://api.e.qq.com',
  request(r, base) {
    const q = new URLSearchParams({
      access_token: r.credentials.accessToken ?? '',
      timestamp: String(Math.floor(r.now.getTime() / 1000)),
      nonce: r.nonce.slice(0, 32),
    });
    const action: Record<string, unknown> = {
      action_time: Math.floor(r.happenedAt.getTime() / 1000),
      action_type: r.eventCode,
      trace: { click_id: r.clickParams.gdt_vid ?? r.clickParams.qz_gdt ?? '' },
    };
    if (r.valueFen !== null) action.action_param = { value: r.valueFen };
    return {
      method: 'POST',
      url: `${base}/v1.3/user_actions/add?${q.toString()}`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        account_id: Number(r.credentials.accountId),
        user_action_set_id: Number(r.credentials.userActionSetId),
        actions: [action],
      }),
    };
  },
  verdict: codeZeroVerdict('腾讯广告'),
};
