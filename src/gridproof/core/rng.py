"""The project's own seeded random numbers: the same seed gives the same stream everywhere.

Python's `random` may change between versions and is global state, so puzzles that must be
reproducible from a seed draw from `Rng` instead: xoshiro256** (Blackman and Vigna) whose
256-bit state is filled by splitmix64, every operation masked to 64 bits. Everything above
`next_u64` (bounded ints, floats, shuffles, samples, forks) is defined here in terms of it,
so the whole stream is fixed by this file alone.

Glossary: a `word` is an int in [0, 2**64); `MASK` keeps the low 64 bits.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def splitmix64_next(state: int) -> tuple[int, int]:
    """One splitmix64 step: `(new_state, output)` for a 64-bit `state`."""
    state = (state + GOLDEN_GAMMA) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def _mix(word: int) -> int:
    """The splitmix64 output for state `word`: a bijective scramble of one word."""
    return splitmix64_next(word)[1]


def reduce_seed(seed: int) -> int:
    """The 64-bit splitmix64 seed for any Python int.

    A seed in [0, 2**64) is used as it is. Any other seed is folded: start from
    `_mix(1)` for a negative seed or `_mix(2)` for a large one, then for each 64-bit chunk
    of `abs(seed)`, least significant first, `acc = _mix(acc ^ chunk)`.
    """
    if 0 <= seed <= MASK:
        return seed
    negative = seed < 0
    magnitude = -seed if negative else seed
    acc = _mix(1 if negative else 2)
    while magnitude:
        acc = _mix(acc ^ (magnitude & MASK))
        magnitude >>= 64
    return acc


def fnv1a64(data: bytes) -> int:
    """The 64-bit FNV-1a hash of `data` (stable across runs, unlike `hash()`)."""
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK
    return h


def _rotl(word: int, k: int) -> int:
    return ((word << k) | (word >> (64 - k))) & MASK


class Rng:
    """A xoshiro256** stream seeded through splitmix64; see `reduce_seed` for the seed.

    Not thread-safe; give each consumer its own stream with `fork`.
    """

    __slots__ = ("_s0", "_s1", "_s2", "_s3")

    def __init__(self, seed: int) -> None:
        sm = reduce_seed(seed)
        words = []
        for _ in range(4):
            sm, out = splitmix64_next(sm)
            words.append(out)
        self._s0, self._s1, self._s2, self._s3 = words

    @classmethod
    def from_state(cls, state: Sequence[int]) -> Rng:
        """A stream with the raw xoshiro256** state (four words, not all zero)."""
        if len(state) != 4 or any(not 0 <= w <= MASK for w in state) or not any(state):
            raise ValueError("the state must be four 64-bit words, not all zero")
        rng = cls.__new__(cls)
        rng._s0, rng._s1, rng._s2, rng._s3 = state
        return rng

    @property
    def state(self) -> tuple[int, int, int, int]:
        """The raw xoshiro256** state, for `from_state`."""
        return self._s0, self._s1, self._s2, self._s3

    def next_u64(self) -> int:
        """The next word of the stream, in [0, 2**64)."""
        s0, s1, s2, s3 = self._s0, self._s1, self._s2, self._s3
        result = (_rotl((s1 * 5) & MASK, 7) * 9) & MASK
        t = (s1 << 17) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self._s0, self._s1, self._s2, self._s3 = s0, s1, s2, _rotl(s3, 45)
        return result

    def _bits(self, k: int) -> int:
        """`k` fresh bits: the top bits of as many words as needed, first word highest."""
        words = (k + 63) // 64
        value = 0
        for _ in range(words):
            value = (value << 64) | self.next_u64()
        return value >> (64 * words - k)

    def below(self, n: int) -> int:
        """A uniform int in [0, n), by rejection on `(n - 1).bit_length()` top bits.

        Raises ValueError if n < 1. `below(1)` is 0 and draws nothing.
        """
        if n < 1:
            raise ValueError(f"below({n}): n must be at least 1")
        k = (n - 1).bit_length()
        if k == 0:
            return 0
        while True:
            value = self._bits(k)
            if value < n:
                return value

    def randint(self, lo: int, hi: int) -> int:
        """A uniform int in [lo, hi], both ends included; ValueError if lo > hi."""
        if lo > hi:
            raise ValueError(f"randint({lo}, {hi}): empty range")
        return lo + self.below(hi - lo + 1)

    def random(self) -> float:
        """A uniform float in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        """A uniform element of `seq`; ValueError if it is empty."""
        if not seq:
            raise ValueError("choice from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle `items` in place (Fisher-Yates from the end: j = below(i + 1)).

        The same draws as calling `below`, with `next_u64` written out in the loop: the
        generators shuffle long lists of moves, and the calls cost three times the
        arithmetic."""
        s0, s1, s2, s3 = self._s0, self._s1, self._s2, self._s3
        for i in range(len(items) - 1, 0, -1):
            shift = 64 - i.bit_length()  # below(i + 1) draws the top bits of i's length
            while True:
                x = (s1 * 5) & MASK
                j = ((((x << 7) | (x >> 57)) & MASK) * 9 & MASK) >> shift
                t = (s1 << 17) & MASK
                s2 ^= s0
                s3 ^= s1
                s1 ^= s2
                s0 ^= s3
                s2 ^= t
                s3 = ((s3 << 45) | (s3 >> 19)) & MASK
                if j <= i:
                    break
            items[i], items[j] = items[j], items[i]
        self._s0, self._s1, self._s2, self._s3 = s0, s1, s2, s3

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        """`k` distinct positions of `seq` in random order (a partial Fisher-Yates from the
        front: position i swaps with i + below(n - i)); ValueError unless 0 <= k <= len."""
        pool = list(seq)
        if not 0 <= k <= len(pool):
            raise ValueError(f"sample of {k} from {len(pool)} items")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def fork(self, label: str) -> Rng:
        """An independent child stream named `label`; the parent does not advance.

        The child's splitmix64 seed is `acc = fnv1a64(label as UTF-8)` folded with the four
        state words in order by `acc = _mix(acc ^ word)`. Forking twice with one label from
        the same state gives the same child.
        """
        acc = fnv1a64(label.encode("utf-8"))
        for word in self.state:
            acc = _mix(acc ^ word)
        return Rng(acc)
