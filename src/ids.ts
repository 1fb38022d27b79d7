import { monotonicFactory } from 'ulid';

/** ULIDs for every id: monotonic within a process so ids made in one millisecond still sort. */
export const newId: () => string = monotonicFactory();

export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export const epochMsOrNull = (date: Date | null | undefined): number | null =>
  date ? date.getTime() : null;
