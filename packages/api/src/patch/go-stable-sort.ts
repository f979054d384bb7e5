/** Go's block size: the runs insertion-sorted before they are merged. */
const insertionBlock = 20;

/**
 * Go's sort.SliceStable (insertion sort in blocks of 20, then SymMerge). Strategic merge orders list
 * items with a comparison that is not a strict ordering when an item is missing from the reference
 * order; running Go's own algorithm keeps the resulting order identical to Kubernetes' in that case too.
 */
export function goStableSort<T>(items: T[], less: (a: T, b: T) => boolean): T[] {
  // up to one block Go's algorithm is the insertion sort alone (the lists strategic merge orders
  // are short): run without building the helpers below
  if (items.length <= insertionBlock) {
    for (let i = 1; i < items.length; i++) {
      for (let j = i; j > 0 && less(items[j]!, items[j - 1]!); j--) {
        const t = items[j]!;
        items[j] = items[j - 1]!;
        items[j - 1] = t;
      }
    }
    return items;
  }
  const data = items;
  const lessAt = (i: number, j: number): boolean => less(data[i]!, data[j]!);
  const swap = (i: number, j: number): void => {
    const t = data[i]!;
    data[i] = data[j]!;
    data[j] = t;
  };
  const n = data.length;

  const insertionSort = (a: number, b: number): void => {
    for (let i = a + 1; i < b; i++) {
      for (let j = i; j > a && lessAt(j, j - 1); j--) swap(j, j - 1);
    }
  };
  const swapRange = (a: number, b: number, count: number): void => {
    for (let i = 0; i < count; i++) swap(a + i, b + i);
  };
  const rotate = (a: number, m: number, b: number): void => {
    let i = m - a;
    let j = b - m;
    while (i !== j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  };
  const symMerge = (a: number, m: number, b: number): void => {
    if (m - a === 1) {
      let i = m;
      let j = b;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (lessAt(h, a)) i = h + 1;
        else j = h;
      }
      for (let k = a; k < i - 1; k++) swap(k, k + 1);
      return;
    }
    if (b - m === 1) {
      let i = a;
      let j = m;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (!lessAt(m, h)) i = h + 1;
        else j = h;
      }
      for (let k = m; k > i; k--) swap(k, k - 1);
      return;
    }
    const mid = (a + b) >>> 1;
    const nn = mid + m;
    let start: number;
    let r: number;
    if (m > mid) {
      start = nn - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    const p = nn - 1;
    while (start < r) {
      const c = (start + r) >>> 1;
      if (!lessAt(p - c, c)) start = c + 1;
      else r = c;
    }
    const end = nn - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) symMerge(a, start, mid);
    if (mid < end && end < b) symMerge(mid, end, b);
  };

  let blockSize = insertionBlock;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n);
    blockSize *= 2;
  }
  return data;
}
