// What the server-rendered shell of the front desk hands the bundle (a JSON script element): the
// language, and the salon when the host or the address names one (its slug goes with the sign-in).
// Shared type of api/pages/desk-page.ts and web/desk/.
import type { Lang } from './format';

export interface DeskBoot {
  lang: Lang;
  /** the salon of the host (`<slug>.<PLATFORM_DOMAIN>`, a custom domain) or of `?salon=<slug>`; null on the platform host */
  salon: { slug: string; name: string } | null;
}
