export type StaffRole = 'admin' | 'operator' | 'viewer' | 'channel_partner';

export interface Staff {
  id: number;
  name: string;
  mobile: string;
  role: StaffRole;
}
