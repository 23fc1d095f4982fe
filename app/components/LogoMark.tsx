/** The studio's mark: a stylised level meter. Decorative; the studio name beside it is the label. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg className={className} aria-hidden="true" width="28" height="28" viewBox="0 0 28 28" fill="currentColor">
      <rect x="2" y="12" width="4" height="10" rx="2" />
      <rect x="8" y="6" width="4" height="16" rx="2" />
      <rect x="14" y="2" width="4" height="20" rx="2" />
      <rect x="20" y="9" width="4" height="13" rx="2" />
      <rect x="2" y="24" width="22" height="2" rx="1" opacity="0.5" />
    </svg>
  );
}
