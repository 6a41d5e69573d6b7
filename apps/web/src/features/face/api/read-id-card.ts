import type { OcrIdCardData } from '@lm/shared/schemas/credit';
import { api } from '@/lib/api-client';

export type { OcrIdCardData };

/**
 * POST /api/app/userInfo/getOcrResultByIDCardPic — what the card front says (the upload's URL in
 * the private `idcard` folder), to pre-fill the form for the person to confirm. Shape: ocrIdCardData
 * of @lm/shared/schemas/credit (types only here: the browser bundle does not carry zod).
 */
export function readIdCard(image: string): Promise<OcrIdCardData> {
  return api.post<OcrIdCardData>('/api/app/userInfo/getOcrResultByIDCardPic', { image });
}
