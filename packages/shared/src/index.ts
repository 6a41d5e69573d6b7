import { z } from 'zod';

// Validation messages in Chinese for the generic cases (wrong type, unknown enum value …).
z.config(z.locales.zhCN());

export * from './errors.ts';
export * from './mask.ts';
export * from './schemas/application.ts';
export * from './schemas/auth.ts';
export * from './schemas/channel.ts';
export * from './schemas/common.ts';
export * from './schemas/geo.ts';
export * from './validators/id-card.ts';
export * from './validators/phone.ts';
export * from './values.ts';
