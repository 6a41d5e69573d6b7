import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { ErrorState } from '@/components/error-state';
import { useConsentedText } from '../api/get-consented-text';
import { formatDateTime } from '../format';
import styles from './account.module.css';

/** The exact agreement text a consent recorded, with its version, time and SHA-256. */
export function ConsentTextPopup({ consentId, onClose }: { consentId: number | null; onClose: () => void }) {
  const text = useConsentedText(consentId);
  return (
    <Popup
      visible={consentId !== null}
      onMaskClick={onClose}
      onClose={onClose}
      bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12 }}
      destroyOnClose
    >
      <div className={styles.popup} role="dialog" aria-label="授权书">
        <div className={styles.popupHead}>
          <span>{text.data ? `《${text.data.title}》` : '授权书'}</span>
          <button type="button" className={styles.linkButton} onClick={onClose}>
            关闭
          </button>
        </div>
        <div className={styles.popupBody}>
          {text.isPending ? (
            <Skeleton.Paragraph lineCount={8} animated />
          ) : text.isError ? (
            <ErrorState title="授权书加载失败" description={text.error.message}>
              <Button size="small" onClick={() => void text.refetch()}>
                重新加载
              </Button>
            </ErrorState>
          ) : (
            <>
              <p className={styles.popupMeta}>
                版本：{text.data.version}
                {text.data.consentedAt && `　同意时间：${formatDateTime(text.data.consentedAt)}`}
              </p>
              <div className={styles.popupText}>{text.data.content}</div>
              <p className={styles.hash}>文本校验码（SHA-256）：{text.data.textHash}</p>
            </>
          )}
        </div>
      </div>
    </Popup>
  );
}
