// Device kinds as small inline SVG icons: an emoji renders as a box where no emoji font exists.

const PATHS: Record<string, string> = {
  desktop: 'M3 4h18v12H3zM8 20h8M12 16v4',
  mobile: 'M7 2h10v20H7zM11 18h2',
  tablet: 'M4 3h16v18H4zM11 17h2',
  tv: 'M2 5h20v13H2zM8 21h8',
};

/** The device kind's icon (a laptop for unknown kinds); decorative: the kind is written beside it. */
export function DeviceIcon({ device }: { device: string | null | undefined }) {
  return (
    <svg className="device-icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        d={(device && PATHS[device]) || 'M4 5h16v10H4zM2 19h20'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}
