/** The product's name; every place that names it uses this one constant. */
export const PRODUCT_NAME = 'Tapedeck';

/** The logo mark: the app icon's cassette (public/icons/icon.svg), drawn inline so it needs no request. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg className="logo-mark" width={size} height={size} viewBox="0 0 512 512" aria-hidden="true" focusable="false">
      <rect width="512" height="512" rx="112" fill="#4f46e5" />
      <rect x="76" y="136" width="360" height="240" rx="32" fill="#ffffff" />
      <rect x="116" y="176" width="280" height="110" rx="20" fill="#312e81" />
      <circle cx="186" cy="231" r="34" fill="#ffffff" />
      <circle cx="326" cy="231" r="34" fill="#ffffff" />
      <circle cx="186" cy="231" r="12" fill="#312e81" />
      <circle cx="326" cy="231" r="12" fill="#312e81" />
      <path d="M160 376 L186 316 H326 L352 376 Z" fill="#c7d2fe" />
    </svg>
  );
}
