// Exact rational arithmetic for figures a table states "exactly" (seed 000, Ex 8): a parameter typed as a
// decimal (0.4) is read as the fraction it names (2/5), so a break-even comes out as 3/16, not 0.18749999.
export class Fraction {
  private constructor(
    readonly numerator: bigint,
    readonly denominator: bigint,
  ) {}

  static of(numerator: bigint | number, denominator: bigint | number = 1n): Fraction {
    let n = BigInt(numerator);
    let d = BigInt(denominator);
    if (d === 0n) throw new RangeError("a fraction's denominator may not be 0");
    if (d < 0n) [n, d] = [-n, -d];
    const g = gcd(n < 0n ? -n : n, d);
    return new Fraction(n / g, d / g);
  }

  /** A decimal as typed ("0.4", "200", "-1.25", "3e-1" is refused): exactly the number it names. */
  static parse(text: string): Fraction {
    const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
    if (!match) throw new RangeError(`'${text}' is not a decimal number`);
    const [, sign, whole, fraction = ""] = match;
    const n = BigInt(`${whole}${fraction}`) * (sign ? -1n : 1n);
    return Fraction.of(n, 10n ** BigInt(fraction.length));
  }

  plus(other: Fraction): Fraction {
    return Fraction.of(this.numerator * other.denominator + other.numerator * this.denominator, this.denominator * other.denominator);
  }
  minus(other: Fraction): Fraction {
    return this.plus(Fraction.of(-other.numerator, other.denominator));
  }
  times(other: Fraction): Fraction {
    return Fraction.of(this.numerator * other.numerator, this.denominator * other.denominator);
  }
  dividedBy(other: Fraction): Fraction {
    if (other.numerator === 0n) throw new RangeError("division by zero");
    return Fraction.of(this.numerator * other.denominator, this.denominator * other.numerator);
  }
  lessThan(other: Fraction): boolean {
    return this.numerator * other.denominator < other.numerator * this.denominator;
  }

  toNumber(): number {
    return Number(this.numerator) / Number(this.denominator);
  }

  /** `64`, or `3/16` when it is not whole. */
  toString(): string {
    return this.denominator === 1n ? String(this.numerator) : `${this.numerator}/${this.denominator}`;
  }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}
