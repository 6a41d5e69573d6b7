import { PageHeader } from '@/components/page-header';
import { useCanEdit } from '@/features/auth/use-can-edit';
import { SpendImportPanel } from '@/features/spend-imports/components/spend-import-panel';
import { SpendImportsTable } from '@/features/spend-imports/components/spend-imports-table';

/** 消耗导入 (/spend-imports, issue 48.2): import an ad platform's daily spend report; the imports so far. */
export function SpendImportsRoute() {
  const canImport = useCanEdit();
  return (
    <>
      <PageHeader title="消耗导入">
        广告平台的每日消耗按渠道、按天计入渠道成本（按投放消耗计费的渠道，或未设置渠道成本的渠道），用于月度结算与
        ROI。
      </PageHeader>
      {canImport && <SpendImportPanel />}
      <SpendImportsTable />
    </>
  );
}
