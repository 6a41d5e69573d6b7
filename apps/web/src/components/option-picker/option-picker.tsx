import { lazy, Suspense, useState } from 'react';
import { usePrefetchWhenIdle } from '@/hooks/use-prefetch-when-idle';
import { loadChunk } from '@/lib/chunk-load';
import styles from '@/styles/picker-trigger.module.css';

export interface PickerOption<V extends string | number> {
  label: string;
  value: V;
}

interface OptionPickerProps<V extends string | number> {
  options: readonly PickerOption<V>[];
  /** As antd-mobile's Picker: the chosen value in a one-column array (empty when nothing is chosen). */
  value?: (V | null)[];
  onChange?: (value: (V | null)[]) => void;
  placeholder: string;
  title: string;
}

// The wheel (its popup and animation library, ~28 KB gz) is not part of the form's first load (issue 46):
// it is fetched once the page is idle, so the first tap opens it at once, or when first opened.
const loadPicker = () => import('antd-mobile/es/components/picker');
// Opened offline: it waits for the network (网络连接错误) instead of an error page (docs/decisions/058).
const Picker = lazy(() => loadChunk(loadPicker));

/** One enumeration as a wheel picker, opened by a tap on its field. Works as an antd-mobile Form.Item child. */
export function OptionPicker<V extends string | number>({
  options,
  value,
  onChange,
  placeholder,
  title,
}: OptionPickerProps<V>) {
  const [visible, setVisible] = useState(false);
  const [opened, setOpened] = useState(false);
  usePrefetchWhenIdle(loadPicker);
  const chosen = options.find((o) => o.value === value?.[0]);

  return (
    <>
      <button
        type="button"
        className={`${styles.trigger} ${styles.inheritSize}`}
        onClick={() => {
          setVisible(true);
          setOpened(true);
        }}
        aria-haspopup="dialog"
      >
        {chosen ? <span>{chosen.label}</span> : <span className={styles.placeholder}>{placeholder}</span>}
      </button>
      {opened && (
        <Suspense fallback={null}>
          <Picker
            title={title}
            visible={visible}
            columns={[options.map((o) => ({ label: o.label, value: o.value }))]}
            value={value ?? []}
            onClose={() => setVisible(false)}
            onConfirm={(picked) => onChange?.(picked as (V | null)[])}
          />
        </Suspense>
      )}
    </>
  );
}
