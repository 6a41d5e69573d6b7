/** The signed-in staff member as the server answers it (login, GET me): packages/shared's own types. */
export type { Staff, StaffRole } from '@lm/shared/schemas/auth';
