import type { Db } from '../../db/client.ts';
import { type CapCount, CapsRepository } from './repository.ts';

export type { CapCount, Capped, Slot } from './repository.ts';

/**
 * Leads counted on the Shanghai day `day` and in total, by product id (`CapsRepository.todayCounters`);
 * for callers that hold a database handle rather than the repository (the console's catalogue).
 */
export function todayCounters(db: Db, day: string): Promise<Record<string, CapCount>> {
  return new CapsRepository(db).todayCounters(day);
}
