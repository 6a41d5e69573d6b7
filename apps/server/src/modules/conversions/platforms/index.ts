import type { AdPlatform } from '@lm/shared/ad-clicks';
import { baidu } from './baidu.ts';
import { kuaishou } from './kuaishou.ts';
import { oceanengine } from './oceanengine.ts';
import { tencent } from './tencent.ts';
import type { PlatformAdapter } from './types.ts';

/** One adapter per ad platform (docs/conversions.md): the documented request, and how its answer reads. */
export const PLATFORM_ADAPTERS: Record<AdPlatform, PlatformAdapter> = {
  oceanengine,
  kuaishou,
  baidu,
  tencent,
};
