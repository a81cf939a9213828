'use client';

import { createContext, useContext } from 'react';

/**
 * Set by an editor whose reader may not save it (a viewer on a template, say): every field under
 * it shows its value without taking input. Text fields turn read-only rather than disabled, so
 * their content (a template's HTML) can still be selected and copied; choices are disabled.
 */
export const ReadOnlyFields = createContext(false);

export const useFieldsReadOnly = () => useContext(ReadOnlyFields);
