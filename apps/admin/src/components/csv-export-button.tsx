import { Button, type ButtonProps } from 'antd';
import { useState } from 'react';
import { type CsvColumn, downloadCsv, toCsv } from '@/lib/csv';
import { datedFileName, fetchAllPages, type PageOf } from '@/lib/fetch-all-pages';
import { notifySuccess } from '@/lib/notify';

export interface CsvExportOptions<T> {
  /** The rows to export (e.g. every page of the current filters, see `fetchAllPages`). */
  load: () => Promise<readonly T[]>;
  columns: readonly CsvColumn<T>[];
  /** The file name, worked out when the export starts. */
  fileName: () => string;
  /** Shows 「已导出 N 条」 after the download. */
  notifyCount?: boolean;
  /** When loading fails; by default nothing more (the api client has shown the error). */
  onError?: (error: unknown) => void;
}

/** Loads the rows, turns them into CSV and downloads it; `exporting` while that runs. */
export function useCsvExport<T>({ load, columns, fileName, notifyCount, onError }: CsvExportOptions<T>) {
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      const rows = await load();
      downloadCsv(fileName(), toCsv(rows, columns));
      if (notifyCount) notifySuccess(`已导出 ${rows.length} 条`);
    } catch (error) {
      onError?.(error);
    } finally {
      setExporting(false);
    }
  };
  return { exporting, exportCsv };
}

export interface CsvExportButtonProps<T> extends CsvExportOptions<T> {
  disabled?: boolean;
  size?: ButtonProps['size'];
}

/** The 「导出 CSV」 button of a table. */
export function CsvExportButton<T>({ disabled, size, ...options }: CsvExportButtonProps<T>) {
  const { exporting, exportCsv } = useCsvExport(options);
  return (
    <Button size={size} loading={exporting} disabled={disabled} onClick={() => void exportCsv()}>
      导出 CSV
    </Button>
  );
}

export interface ListExportButtonProps<T, F> {
  /** One page of the list for the current filters (the list's own API call). */
  fetchPage: (query: F & { page: number; pageSize: number }) => Promise<PageOf<T>>;
  filters: F;
  columns: readonly CsvColumn<T>[];
  /** The file name before the date: `线索` → `线索-2026-03-01.csv` (Shanghai day). */
  name: string;
  /** How many rows the list has (the button is disabled when none). */
  total: number | undefined;
  notifyCount?: boolean;
}

/** The 「导出 CSV」 button of a paged list page: every page of the current filters, a dated file. */
export function ListExportButton<T, F>({
  fetchPage,
  filters,
  name,
  total,
  ...rest
}: ListExportButtonProps<T, F>) {
  return (
    <CsvExportButton
      load={() => fetchAllPages((page, pageSize) => fetchPage({ ...filters, page, pageSize }))}
      fileName={() => datedFileName(name)}
      disabled={!total}
      {...rest}
    />
  );
}
