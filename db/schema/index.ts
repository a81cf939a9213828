export * from './auth';
export * from './organizations';
export * from './api-keys';
export * from './rate-limits';
export * from './system-emails';
export * from './domains';
export * from './events';
export * from './suppressions';
