import Input, { type InputProps } from 'antd-mobile/es/components/input';

type CodeInputProps = Omit<
  InputProps,
  'value' | 'onChange' | 'type' | 'inputMode' | 'autoComplete' | 'maxLength'
> & {
  value: string;
  /** The typed code, digits only (anything else is dropped as it is typed), six at most. */
  onChange: (code: string) => void;
};

/** The SMS verification code field of the staff login and the account cancellation. */
export function CodeInput({ value, onChange, ...props }: CodeInputProps) {
  return (
    <Input
      type="tel"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      value={value}
      onChange={(typed) => onChange(typed.replace(/\D/g, '').slice(0, 6))}
      {...props}
    />
  );
}
