export type StaffRole = 'admin' | 'operator' | 'viewer';

export interface Staff {
  id: number;
  name: string;
  mobile: string;
  role: StaffRole;
}
