import { Button, type ButtonProps } from 'antd';
import { useState } from 'react';
import { type CsvColumn, downloadCsv, toCsv } from '@/lib/csv';
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
