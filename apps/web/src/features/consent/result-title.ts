import { isOn, type QueryOptions } from './query-options';

/**
 * The result page's title (header and document): after registerLink (`registered`, or a city not
 * served: `isSpecialListCity`) nothing was applied for, so it is not 申请结果 (issue 44.16).
 */
export function resultPageTitle(options: QueryOptions): string {
  return isOn(options.registered) || isOn(options.isSpecialListCity) ? '注册结果' : '申请结果';
}
