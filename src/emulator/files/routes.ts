// Routes outside the table: where upload targets point and download URLs serve. Filled in by
// the files issue.
import type { RawRoute } from '../handler';

export const fileRoutes: RawRoute[] = [];
