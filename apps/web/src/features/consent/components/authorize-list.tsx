import { useMutation } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import Checkbox from 'antd-mobile/es/components/checkbox';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { COMPANY_TYPE_LABELS } from '@/config/form-options';
import { toast } from '@/lib/toast';
import styles from '@/styles/forms.module.css';
import { authorizeProducts } from '../api/authorize-products';
import { authorizeHint } from '../authorize-hint';
import type { AuthAnswer } from '../consent-result';
import {
  formatAmountRange,
  formatApr,
  formatTermRange,
  type MatchedProduct,
  type ParsedMatch,
  safeSession,
  sharedFieldLabels,
} from '../matched-products';

interface AuthorizeListProps {
  /** The match whose offers are listed; its matchId goes with the consent. */
  match: ParsedMatch;
  adChannelCode: string;
  /** The information agreement consented to per lender (its page renders it for the lender). */
  agreement: { title: string; path: string };
  /** After a successful authorisation, with the server's answer. */
  onAuthorized: (answer: AuthAnswer) => void | Promise<void>;
  /** The empty state's action (e.g. back to the home page). */
  emptyAction?: ReactNode;
  /** The second authorisation (spec §4): its own hint (authorize-hint.ts). */
  second?: boolean;
  /** Under the consent button: a way on without consenting (the second authorisation's skip). */
  secondaryAction?: ReactNode;
}

/** Shown only for results without the lender's field list (older stored matches). */
const FALLBACK_SHARED_FIELDS = '姓名、手机号、身份证号、借款金额、工作城市、职业及资产信用信息';

/**
 * The ticks survive a visit to an agreement page and back (the person reads a lender's text, then
 * decides); per match, in sessionStorage. Nothing is ticked until the person ticks it.
 */
const SELECTION_KEY = 'authorizeSelection';

function selectionKey(match: ParsedMatch): string {
  return match.matchId !== null ? `m${match.matchId}` : match.products.map((p) => p.id).join(',');
}

function readSelection(key: string, ids: readonly string[]): string[] {
  try {
    const raw = safeSession()?.getItem(SELECTION_KEY);
    const saved = raw ? (JSON.parse(raw) as { key?: unknown; ids?: unknown }) : null;
    if (saved?.key !== key || !Array.isArray(saved.ids)) return [];
    return saved.ids.filter((id): id is string => typeof id === 'string' && ids.includes(id));
  } catch {
    return [];
  }
}

function writeSelection(key: string, ids: string[] | null): void {
  try {
    if (ids === null) safeSession()?.removeItem(SELECTION_KEY);
    else safeSession()?.setItem(SELECTION_KEY, JSON.stringify({ key, ids }));
  } catch {
    // Storage unavailable: the ticks live for this page only.
  }
}

function Terms({ product }: { product: MatchedProduct }) {
  const apr = formatApr(product.aprBps);
  const amount = formatAmountRange(product.amountMinFen, product.amountMaxFen);
  const term = formatTermRange(product.termMinMonths, product.termMaxMonths);
  if (!apr && !amount && !term) return null;
  return (
    <div className={styles.productTerms}>
      {apr && <span className={styles.productApr}>{apr}</span>}
      {amount && <span>额度 {amount}</span>}
      {term && <span>期限 {term}</span>}
    </div>
  );
}

function ProductCard({
  product,
  checked,
  onToggle,
  agreement,
}: {
  product: MatchedProduct;
  checked: boolean;
  onToggle: (on: boolean) => void;
  agreement: { title: string; path: string };
}) {
  const { lender } = product;
  const labels = sharedFieldLabels(product.sharedFields);
  const companyType = product.companyType ? COMPANY_TYPE_LABELS[product.companyType] : undefined;
  const title = product.agreement?.title ?? agreement.title;
  const contact = [lender?.contactName, lender?.contactPhone].filter(Boolean).join(' ');
  return (
    <li className={checked ? `${styles.product} ${styles.productOn}` : styles.product}>
      <div className={styles.productHead}>
        <Checkbox checked={checked} onChange={onToggle} className={styles.productCheck}>
          <span className={styles.productName}>{product.productName}</span>
        </Checkbox>
        {companyType && <span className={styles.productTag}>{companyType}</span>}
      </div>
      <Terms product={product} />
      <dl className={styles.productMeta}>
        {lender && (
          <div>
            <dt>放款机构</dt>
            <dd className={styles.productLender}>{lender.legalName}</dd>
          </div>
        )}
        {lender?.licenceNumber && (
          <div>
            <dt>许可证号</dt>
            <dd>{lender.licenceNumber}</dd>
          </div>
        )}
        {contact && (
          <div>
            <dt>联系方式</dt>
            <dd>{contact}</dd>
          </div>
        )}
        {product.partnerProductName && (
          <div>
            <dt>合作产品</dt>
            <dd>{product.partnerProductName}</dd>
          </div>
        )}
        {product.purpose && (
          <div>
            <dt>使用目的</dt>
            <dd>{product.purpose}</dd>
          </div>
        )}
        <div>
          <dt>提供信息</dt>
          <dd>{labels.length > 0 ? labels.join('、') : FALLBACK_SHARED_FIELDS}</dd>
        </div>
      </dl>
      <Link
        className={styles.productAgreement}
        to={`${agreement.path}?productId=${encodeURIComponent(product.id)}`}
      >
        查看《{title}》
      </Link>
    </li>
  );
}

/**
 * The authorisation list: every matched lender with its legal name, licence, contact, purpose, the
 * fields it would receive and its terms, each with its own consent checkbox (consent is given lender
 * by lender, none ticked in advance); then PUT /api/user/info/auth with the ticked ones and the
 * match's id. Offers left unticked are declined by the server and receive nothing.
 */
export function AuthorizeList({
  match,
  adChannelCode,
  agreement,
  onAuthorized,
  emptyAction,
  second = false,
  secondaryAction,
}: AuthorizeListProps) {
  const { products } = match;
  const key = useMemo(() => selectionKey(match), [match]);
  const ids = useMemo(() => products.map((p) => p.id), [products]);
  const [selected, setSelected] = useState<string[]>(() => readSelection(key, ids));
  const [finishing, setFinishing] = useState(false);
  const authorize = useMutation({ mutationFn: authorizeProducts });

  useEffect(() => {
    if (!finishing) writeSelection(key, selected);
  }, [key, selected, finishing]);

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
    if (authorize.isPending || finishing) return;
    const productIds = ids.filter((id) => selected.includes(id));
    if (productIds.length === 0) {
      toast.show('请至少勾选一家机构');
      return;
    }
    authorize.mutate(
      { productIds, adChannelCode, matchId: match.matchId },
      {
        onSuccess: async (answer) => {
          setFinishing(true);
          writeSelection(key, null);
          try {
            // The page moves on; the button stays busy (and the ticks unsaved) until it has.
            await onAuthorized(answer);
          } catch {
            setFinishing(false);
          }
        },
      },
    );
  };

  return (
    <div className={secondaryAction ? `${styles.authorize} ${styles.authorizeTwoActions}` : styles.authorize}>
      <p className={styles.authorizeHint}>{authorizeHint(products.length, second)}</p>
      <ul className={styles.products}>
        {products.map((p) => (
          <ProductCard
            key={p.id}
            product={p}
            checked={selected.includes(p.id)}
            onToggle={(on) => toggle(p.id, on)}
            agreement={agreement}
          />
        ))}
      </ul>
      <div className={styles.stickyFooter}>
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          loading={authorize.isPending || finishing}
          onClick={submit}
        >
          {selected.length > 0 ? `同意授权并申请（${selected.length}家）` : '请勾选要申请的机构'}
        </Button>
        {secondaryAction}
      </div>
    </div>
  );
}
