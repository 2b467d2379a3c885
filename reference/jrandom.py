"""A java.util.Random twin, so a seeded reference draws what `new Random(seed)` draws in Java."""

_MULTIPLIER = 0x5DEECE66D
_ADDEND = 0xB
_MASK = (1 << 48) - 1


class JavaRandom:
    """The JDK's 48-bit linear congruential generator (java.util.Random, JDK 17)."""

    def __init__(self, seed: int):
        self._seed = (seed ^ _MULTIPLIER) & _MASK

    def next_bits(self, bits: int) -> int:
        self._seed = (self._seed * _MULTIPLIER + _ADDEND) & _MASK
        value = self._seed >> (48 - bits)
        if value >= 1 << 31:  # Java returns a signed 32-bit int
            value -= 1 << 32
        return value

    def next_int(self, bound: int | None = None) -> int:
        """`nextInt()` or `nextInt(bound)`, exactly as the JDK defines them."""
        if bound is None:
            return self.next_bits(32)
        if bound <= 0:
            raise ValueError("bound must be positive")
        r = self.next_bits(31)
        m = bound - 1
        if bound & m == 0:  # a power of two
            return (bound * r) >> 31
        u = r
        while True:
            r = u % bound
            if u - r + m < 1 << 31:  # no 32-bit overflow: accept
                return r
            u = self.next_bits(31)
