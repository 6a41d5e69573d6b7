import { useQuery } from '@tanstack/react-query';
import { operatorQueryOptions } from './get-operator';

interface LicensedCompany {
  companyName: string;
  filingNumber: string;
}

/**
 * The companies a page footer names: the channel's licensed-company records (h5Config.footer), or, for a
 * channel without any, the operator from configuration (fetched only then).
 */
export function useFooterCompanies(channelFooter: readonly LicensedCompany[]): readonly LicensedCompany[] {
  const needOperator = channelFooter.length === 0;
  const operator = useQuery({ ...operatorQueryOptions(), enabled: needOperator });
  if (!needOperator) return channelFooter;
  return operator.data ? [{ companyName: operator.data.name, filingNumber: operator.data.licence }] : [];
}
