/** The panel's mark (the same drawing as the favicon), inline so it needs no extra request. */
export function BrandMark({ size }: { size: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#5856d6" />
      <rect x="7" y="7" width="8" height="18" rx="2" fill="#fff" />
      <rect x="17" y="7" width="8" height="8" rx="2" fill="#fff" opacity=".85" />
      <rect x="17" y="17" width="8" height="8" rx="2" fill="#fff" opacity=".6" />
    </svg>
  )
}
