import Button from 'antd-mobile/es/components/button';
import { toast } from '@/lib/toast';
import { useExportMyData } from '../api/export-my-data';

/** Downloads all of the person's data as a JSON file; says what happened. */
export function useExportDownload() {
  const exportData = useExportMyData();
  const run = () => {
    if (exportData.isPending) return;
    toast.show({ icon: 'loading', content: '正在导出…', duration: 0 });
    exportData.mutate(undefined, {
      onSuccess: (file) => {
        toast.show({ icon: 'success', content: `已导出：${file.fileName}` });
      },
      onError: (error) => {
        toast.show({ content: error.message || '导出失败，请稍后重试', duration: 3000 });
      },
    });
  };
  return { run, isPending: exportData.isPending };
}

/** "导出我的数据" as a button. */
export function ExportDataButton({ block = true }: { block?: boolean }) {
  const { run, isPending } = useExportDownload();
  return (
    <Button block={block} shape="rounded" color="primary" fill="outline" loading={isPending} onClick={run}>
      导出我的数据
    </Button>
  );
}
