// Deprecation reasons in one wording (README, "Deprecation policy"): what to use instead and the
// earliest date the field may go, at least six months after it was deprecated.

/** The first removal date of the fields deprecated together in this release. */
export const REMOVAL_2027_06 = '2027-06-01';

/** The same for the fields deprecated in the sixth wave (December 2026): six months on, rounded to a month. */
export const REMOVAL_2027_07 = '2027-07-01';

/** A deprecation reason: its replacement, and the date before which the field stays. */
export const deprecatedFor = (replacement: string, removalDate: string): string =>
  `Use ${replacement}. Removed on or after ${removalDate}.`;
