import { api } from '@/lib/api-client';

/** POST /api/user/info/identityNameVerify body. */
export interface IdentityNameVerifyInput {
  realName: string;
  identity: string;
}

/** POST /api/user/info/identityNameVerify answer. */
export interface IdentityNameVerifyData {
  /** null: nobody compared the name with the number (local provider: format only, or the service failed). */
  verified: boolean | null;
  method: 'format-only' | 'provider';
  /** What was (and was not) checked, in Chinese. */
  note: string;
  age: number;
  /** 1 male, 2 female (from the number). */
  gender: number;
}

/** POST /api/user/info/identityNameVerify — name + national ID. */
export function verifyIdentityName(input: IdentityNameVerifyInput): Promise<IdentityNameVerifyData> {
  return api.post<IdentityNameVerifyData, IdentityNameVerifyInput>(
    '/api/user/info/identityNameVerify',
    input,
  );
}
