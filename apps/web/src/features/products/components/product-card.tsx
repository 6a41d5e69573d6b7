import type { ProductItem } from '@lm/shared/schemas/product';
import Button from 'antd-mobile/es/components/button';
import { Link } from 'react-router';
import { formatAmountRange, formatApr, formatTerm, initialOf } from '../format';
import { useExposureRef } from '../use-exposure';
import styles from './products.module.css';

export const COMPANY_TYPE_TAGS = { KAInstitution: '持牌机构', RegionInstitution: '地方机构' } as const;

export interface ProductCardProps {
  product: ProductItem;
  /** Spec §3 ad placement of the list this card is in (exposure and apply are reported with it). */
  placement: number;
  onApply(product: ProductItem, placement: number): void;
  applying?: boolean;
}

/** A product as listed: name, the lender's legal name, amount range, APR and term, and 去申请. */
export function ProductCard({ product, placement, onApply, applying }: ProductCardProps) {
  const ref = useExposureRef(product.id, placement);
  const name = product.yqlWholeProcessBumpVO?.partnerProductName || product.productName;
  return (
    <article ref={ref} className={styles.card} aria-label={name}>
      <div className={styles.logo} aria-hidden="true">
        {initialOf(name)}
      </div>
      <div className={styles.body}>
        <div className={styles.head}>
          <h3 className={styles.name}>
            <Link
              to={`/you-xin-detail?productId=${encodeURIComponent(product.id)}&entranceType=${placement}`}
            >
              {name}
            </Link>
          </h3>
          <span className={styles.tag}>{COMPANY_TYPE_TAGS[product.companyType]}</span>
        </div>
        <p className={styles.lender}>放款机构：{product.lenderLegalName}</p>
        <div className={styles.figures}>
          <div>
            <p className={styles.amount}>{formatAmountRange(product.amountMinFen, product.amountMaxFen)}</p>
            <p className={styles.meta}>
              <strong>{formatApr(product.aprBps)}</strong> · 期限
              {formatTerm(product.termMinMonths, product.termMaxMonths)}
            </p>
          </div>
          <Button
            className={styles.apply}
            color="primary"
            size="small"
            loading={applying}
            onClick={() => onApply(product, placement)}
          >
            去申请
          </Button>
        </div>
      </div>
    </article>
  );
}
