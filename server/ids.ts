import { uuidv7 } from 'uuidv7';

/** Time-ordered ids: a page cursor is the last id, and "newest first" is ORDER BY id DESC. */
export const newId = (): string => uuidv7();

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
