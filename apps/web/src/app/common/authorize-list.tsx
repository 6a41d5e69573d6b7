import { useMutation } from '@tanstack/react-query';
import { Button, Checkbox, Toast } from 'antd-mobile';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { authorizeProducts } from './api';
import styles from './forms.module.css';
import type { MatchedProduct } from './matched-products';
import { COMPANY_TYPE_LABELS } from './options';

interface AuthorizeListProps {
  products: readonly MatchedProduct[];
  adChannelCode: string;
  /** The information agreement consented to per lender. */
  agreement: { title: string; path: string };
  /** After a successful authorisation, with the ids consented to. */
  onAuthorized: (productIds: string[]) => void;
  /** The empty state's action (e.g. back to the home page). */
  emptyAction?: ReactNode;
  intro?: ReactNode;
}

/** Fields a lender receives once the person consents (the form draft of spec §3, by category). */
const SHARED_FIELDS = '姓名、手机号、身份证号、借款金额、工作城市、职业及资产信用信息';

/**
 * The authorisation list: every matched lender with its own consent checkbox (consent is given lender
 * by lender), then PUT /api/user/info/auth with the ticked ones.
 */
export function AuthorizeList({
  products,
  adChannelCode,
  agreement,
  onAuthorized,
  emptyAction,
  intro,
}: AuthorizeListProps) {
  const [selected, setSelected] = useState<string[]>([]);
  const authorize = useMutation({ mutationFn: authorizeProducts });

  if (products.length === 0) {
    return (
      <EmptyState title="暂无可授权的产品" description="暂未匹配到合适的机构，您可以稍后再来看看">
        {emptyAction}
      </EmptyState>
    );
  }

  const toggle = (id: string, on: boolean) =>
    setSelected((list) => (on ? [...new Set([...list, id])] : list.filter((x) => x !== id)));

  const submit = () => {
    if (selected.length === 0) {
      Toast.show('请至少选择一家机构');
      return;
    }
    authorize.mutate({ productIds: selected, adChannelCode }, { onSuccess: () => onAuthorized(selected) });
  };

  return (
    <div className={styles.authorize}>
      {intro}
      <p className={styles.authorizeHint}>
        以下{products.length}家机构可为您提供借款服务。请逐一阅读并勾选，您只向勾选的机构提供信息。
      </p>
      <ul className={styles.products}>
        {products.map((p) => {
          const checked = selected.includes(p.id);
          return (
            <li key={p.id} className={checked ? `${styles.product} ${styles.productOn}` : styles.product}>
              <Checkbox checked={checked} onChange={(on) => toggle(p.id, on)} className={styles.productCheck}>
                <span className={styles.productName}>{p.productName}</span>
              </Checkbox>
              <dl className={styles.productMeta}>
                {p.companyType && COMPANY_TYPE_LABELS[p.companyType] && (
                  <div>
                    <dt>机构类型</dt>
                    <dd>{COMPANY_TYPE_LABELS[p.companyType]}</dd>
                  </div>
                )}
                {p.partnerProductName && (
                  <div>
                    <dt>合作方</dt>
                    <dd>{p.partnerProductName}</dd>
                  </div>
                )}
                <div>
                  <dt>提供信息</dt>
                  <dd>{SHARED_FIELDS}</dd>
                </div>
              </dl>
              <Link
                className={styles.productAgreement}
                to={`${agreement.path}?productId=${encodeURIComponent(p.id)}`}
              >
                《{agreement.title}》
              </Link>
            </li>
          );
        })}
      </ul>
      <div className={styles.stickyFooter}>
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          loading={authorize.isPending}
          onClick={submit}
        >
          {selected.length > 0 ? `同意授权并申请（${selected.length}家）` : '同意授权并申请'}
        </Button>
      </div>
    </div>
  );
}
