/**
 * Route `handle`s: page title, favicon and layout per route (spec §2). The root layout reads the deepest
 * match's values; the channel's h5Config may override them (title on landing and login pages, icon
 * everywhere).
 */
export interface RouteHandle {
  /** Document title; a function gets the query (e.g. /inline-page names the partner product). */
  title?: string | ((query: URLSearchParams) => string | null);
  /** Favicon URL (data: URLs included); the default icon when absent. */
  icon?: string;
  /** Render inside the main layout (bottom tab bar). */
  mainLayout?: boolean;
  /** The channel's h5Config.title replaces this route's title (landing and login pages). */
  channelTitle?: boolean;
}

export const DEFAULT_TITLE = '借款超市';

/**
 * The landing and login entries (spec §2): their own titles, replaced by the channel's h5Config.title.
 * The server renders them in the channel's skin (issue 17.1) with the same titles.
 */
export const CHANNEL_PAGE_TITLES = {
  '/': DEFAULT_TITLE,
  '/download': DEFAULT_TITLE,
  '/login': '登录',
  // The login-as-form-request entries.
  '/getQuota': '立即领取额度',
  '/h5': '立即领取额度',
} as const;
export type ChannelPagePath = keyof typeof CHANNEL_PAGE_TITLES;

/** The handle of a landing or login entry. */
export const channelPageHandle = (path: ChannelPagePath): RouteHandle => ({
  title: CHANNEL_PAGE_TITLES[path],
  channelTitle: true,
});

const svgIcon = (body: string) => `data:image/svg+xml,${encodeURIComponent(body)}`;

/** The ¥ tile of index.html. */
export const DEFAULT_ICON = svgIcon(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='8' fill='#FF2C3E'/><text x='16' y='22' font-size='16' text-anchor='middle' fill='white' font-family='sans-serif'>¥</text></svg>",
);

/** Staff pages: a dark tile with a person, so the tab is not mistaken for the consumer site. */
export const STAFF_ICON = svgIcon(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='8' fill='#1f2937'/><circle cx='16' cy='12' r='5' fill='white'/><path d='M7 26c1-5 5-7 9-7s8 2 9 7' fill='white'/></svg>",
);

interface ChannelHead {
  title: string | null;
  icon: string | null;
}

/** Title and icon for the current matches (deepest match first wins) and channel configuration. */
export function resolveHead(
  handles: readonly (RouteHandle | undefined)[],
  query: URLSearchParams,
  channel: ChannelHead,
): { title: string; icon: string } {
  const deepest = [...handles].reverse();
  const titled = deepest.find((h) => h?.title !== undefined);
  let title: string | null = null;
  if (titled?.channelTitle && channel.title?.trim()) title = channel.title.trim();
  else if (typeof titled?.title === 'function') title = titled.title(query);
  else if (typeof titled?.title === 'string') title = titled.title;
  const routeIcon = deepest.find((h) => h?.icon)?.icon;
  return {
    title: title?.trim() || DEFAULT_TITLE,
    icon: channel.icon?.trim() || routeIcon || DEFAULT_ICON,
  };
}
