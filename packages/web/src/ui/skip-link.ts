/** A skip link's look: off-screen until it has the keyboard focus, then over the page's top-left corner. */
export const SKIP_LINK_CLASS =
  'btn btn-primary btn-sm absolute left-2 top-2 z-50 -translate-y-16 focus:translate-y-0';
