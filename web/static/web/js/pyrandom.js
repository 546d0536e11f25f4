// Python's `random.Random(seed)` for a text seed, as the server deals with it
// (games/engine/rulesets/*: shuffle, randrange, randint, random): the Mersenne Twister (MT19937)
// seeded from the text and its SHA-512 as CPython does, so that a page can deal a round again
// from its revealed seed and see that the deal was the one the seed makes.

const N = 624;
const M = 397;

export class PyRandom {
  /** @param {number[]} key  the seed as 32-bit words, least significant first */
  constructor(key) {
    /** @type {Uint32Array} */
    this.mt = new Uint32Array(N);
    this.index = N;
    this.initByArray(key);
  }

  /**
   * A generator seeded as `random.Random(text)` is (version 2: the text's UTF-8 bytes followed
   * by their SHA-512, read as one big-endian integer). Needs `crypto.subtle` (a secure page).
   * @param {string} text
   */
  static async fromText(text) {
    const bytes = new TextEncoder().encode(text);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-512", bytes));
    const all = new Uint8Array(bytes.length + digest.length);
    all.set(bytes);
    all.set(digest, bytes.length);
    let start = 0;
    while (start < all.length && all[start] === 0) start += 1;
    const words = [];
    for (let end = all.length; end > start; end -= 4) {
      let word = 0;
      for (let i = Math.max(start, end - 4); i < end; i += 1) word = (word * 256 + all[i]) >>> 0;
      words.push(word);
    }
    return new PyRandom(words.length ? words : [0]);
  }

  /** @param {number} seed */
  initGenrand(seed) {
    const mt = this.mt;
    mt[0] = seed >>> 0;
    for (let i = 1; i < N; i += 1) {
      const previous = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, previous) + i) >>> 0;
    }
  }

  /** @param {number[]} key */
  initByArray(key) {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k -= 1) {
      const previous = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(previous, 1664525)) + key[j] + j) >>> 0;
      i += 1;
      j += 1;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k -= 1) {
      const previous = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(previous, 1566083941)) - i) >>> 0;
      i += 1;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
    }
    mt[0] = 0x80000000;
    this.index = N;
  }

  /** The next 32 random bits. */
  uint32() {
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k += 1) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
        mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index];
    this.index += 1;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `getrandbits(k)`, 0 < k <= 32. @param {number} k */
  bits(k) {
    return this.uint32() >>> (32 - k);
  }

  /** `_randbelow(n)`: 0..n-1, as CPython draws it (whole bits, drawn again above n). @param {number} n */
  below(n) {
    const k = n.toString(2).length;
    let r = this.bits(k);
    while (r >= n) r = this.bits(k);
    return r;
  }

  /** `randrange(n)` @param {number} n */
  randrange(n) {
    return this.below(n);
  }

  /** `randint(low, high)`, both included. @param {number} low @param {number} high */
  randint(low, high) {
    return low + this.below(high - low + 1);
  }

  /** `random()`: a float in [0, 1) of 53 bits. */
  random() {
    const a = this.uint32() >>> 5;
    const b = this.uint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /**
   * `shuffle(list)` in place, as CPython does it.
   * @template T
   * @param {T[]} list
   */
  shuffle(list) {
    for (let i = list.length - 1; i > 0; i -= 1) {
      const j = this.below(i + 1);
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  }
}
