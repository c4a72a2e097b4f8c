import type { SiteConfig } from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import { usePlanwrightClient } from '../api/use-planwright-client';

export const SITE_CONFIG_QUERY_KEY = ['site', 'config'] as const;

/** The web app's own legal pages; sign-up and the footer link here unless the server names other ones. */
export const TERMS_PATH = '/web/terms';
export const PRIVACY_PATH = '/web/privacy';

/** The public site's settings (company, legal pages, plans): they change only with the server's config. */
export function useSiteConfig() {
  const client = usePlanwrightClient();
  return useQuery({
    queryKey: SITE_CONFIG_QUERY_KEY,
    queryFn: ({ signal }) => client.site.config({ signal }),
    staleTime: 5 * 60_000,
  });
}

/** Where the terms are read: the server's TERMS_URL when set, else the built-in page. */
export function termsHref(config: SiteConfig | undefined): string {
  return config?.legal.terms_url ?? TERMS_PATH;
}

/** Where the privacy notice is read: the server's PRIVACY_URL when set, else the built-in page. */
export function privacyHref(config: SiteConfig | undefined): string {
  return config?.legal.privacy_url ?? PRIVACY_PATH;
}
