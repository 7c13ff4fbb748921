// How a session's recording is played wherever the app shows one (the replay page, a shared
// link, an opened file): 1024×768 when its meta event gives no size, speeds 0.5× to 8× as on the
// landing demo, starting at 1×.

export const REPLAY_WIDTH = 1024;
export const REPLAY_HEIGHT = 768;
export const REPLAY_SPEEDS = [0.5, 1, 2, 4, 8];
