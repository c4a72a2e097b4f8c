/**
 * The last breadcrumb when it is a user's title: any length, any script, so it is cut to one line (the full
 * title as its tooltip) and its direction follows its own text.
 */
export function TitleCrumb({ title }: { title: string }) {
  return (
    <span
      aria-current="page"
      dir="auto"
      title={title}
      className="block max-w-[14rem] truncate lg:max-w-[24rem]"
    >
      {title}
    </span>
  );
}
