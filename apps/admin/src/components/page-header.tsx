import { Alert, Breadcrumb, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface PageHeaderProps {
  title: ReactNode;
  /** Buttons on the right of the title; when given (even `false`), title and buttons share a row. */
  extra?: ReactNode;
  /** The grey explanation below the title. */
  children?: ReactNode;
}

/** A list page's title, its buttons and the explanation below. */
export function PageHeader({ title, extra, children }: PageHeaderProps) {
  const heading = (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      {title}
    </Typography.Title>
  );
  return (
    <>
      {extra === undefined ? (
        heading
      ) : (
        <Space wrap style={{ width: '100%', justifyContent: 'space-between', alignItems: 'baseline' }}>
          {heading}
          {extra}
        </Space>
      )}
      {children !== undefined && <Typography.Paragraph type="secondary">{children}</Typography.Paragraph>}
    </>
  );
}

export interface EditPageHeaderProps {
  /** The list the record belongs to, first in the breadcrumb. */
  list: { to: string; label: string };
  /** The last breadcrumb item (新建, #12, …). */
  crumb: ReactNode;
  title: ReactNode;
  /** Shown next to the title (e.g. a status tag); when given (even `null`), they share a row. */
  extra?: ReactNode;
  /** Shows 「只读账号：可以查看，不能修改」. */
  readOnly?: boolean;
}

/** A record page's breadcrumb, title and read-only notice. */
export function EditPageHeader({ list, crumb, title, extra, readOnly }: EditPageHeaderProps) {
  const heading = (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      {title}
    </Typography.Title>
  );
  return (
    <>
      <Breadcrumb
        style={{ marginBottom: 8 }}
        items={[{ title: <Link to={list.to}>{list.label}</Link> }, { title: crumb }]}
      />
      {extra === undefined ? (
        heading
      ) : (
        <Space align="baseline">
          {heading}
          {extra}
        </Space>
      )}
      {readOnly && (
        <Alert type="info" showIcon message="只读账号：可以查看，不能修改" style={{ marginBottom: 16 }} />
      )}
    </>
  );
}
