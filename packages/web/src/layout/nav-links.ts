/** The public navigation of spec 000 §2, in order. */
export interface NavLinkItem {
  to: string;
  label: string;
  /** Sign In and Sign Up are shown as buttons on wide screens. */
  kind: 'page' | 'account';
}

export const PUBLIC_NAV_LINKS: readonly NavLinkItem[] = [
  { to: '/', label: 'Home', kind: 'page' },
  { to: '/pricing', label: 'Pricing', kind: 'page' },
  { to: '/about', label: 'About', kind: 'page' },
  { to: '/contact', label: 'Contact', kind: 'page' },
  { to: '/account/signin', label: 'Sign In', kind: 'account' },
  { to: '/account/signup', label: 'Sign Up', kind: 'account' },
];
