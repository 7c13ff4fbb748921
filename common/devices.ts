// A session's "device" is two things, named apart:
// - its device kind, read from the user agent (Bowser's platform type: desktop, mobile, tablet,
//   tv, bot; common/user-agent.ts): the sessions' `device` column, the list's device filter,
//   the dashboard's devices, the replay and account pages' "Device";
// - its viewport class, read from the viewport's width when a click or scroll was recorded:
//   what heatmaps are split by (their `device`). A phone held sideways may be a tablet here.

/** The device kinds the sessions list filters by. */
export const DEVICE_KINDS = ['desktop', 'mobile', 'tablet'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

export const VIEWPORT_CLASSES = ['desktop', 'tablet', 'mobile'] as const;
export type ViewportClass = (typeof VIEWPORT_CLASSES)[number];

/** The viewport class of a width: mobile below 768 px, tablet below 1024 px, desktop from there. */
export const viewportClass = (width: number): ViewportClass => (width < 768 ? 'mobile' : width < 1024 ? 'tablet' : 'desktop');
