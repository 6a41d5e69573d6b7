import Button, { type ButtonProps } from 'antd-mobile/es/components/button';

/** A page's main action: the large, full-width, rounded primary button. */
export function PrimaryButton(props: Omit<ButtonProps, 'block' | 'color' | 'shape' | 'size'>) {
  return <Button block color="primary" shape="rounded" size="large" {...props} />;
}
