// A cursor page, as every list read returns it: the items, and `next` (the cursor of the following,
// older page) when there is one.
export interface Page<T> {
  items: T[];
  next?: number;
}
