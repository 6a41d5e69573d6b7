import { useSearchParams } from 'react-router';
import { toSearchParams, type WriteOptions } from '@/lib/url-filters';

/** A list's filters kept in the address: read with `read`, written with `toSearchParams`. */
export function useUrlFilters<F extends object>(
  read: (q: URLSearchParams) => F,
  options?: WriteOptions,
): [F, (next: F) => void] {
  const [params, setParams] = useSearchParams();
  return [read(params), (next) => setParams(toSearchParams(next, options))];
}
