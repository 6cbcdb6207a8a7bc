// The pages of the left rail, in order. A new page adds its line here.
export interface NavPage {
  href: string;
  label: string;
}

export const NAV_PAGES: NavPage[] = [
  { href: "/room", label: "Room" },
  { href: "/journal", label: "Journal" },
];
