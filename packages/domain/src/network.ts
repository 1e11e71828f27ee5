/** Network addresses typed by staff (issue 26: a receipt printer's address). */

/** A host name: letters, digits and hyphens in dot-separated labels of at most 63, 253 in all. */
export const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export const ADDRESS_MESSAGE = 'This value is not a valid IP address or host name.';
