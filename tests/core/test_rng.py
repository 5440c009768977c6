"""The portable RNG: reference vectors, frozen streams, and a uniformity sanity check."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridproof.core.rng import MASK, Rng, fnv1a64, reduce_seed, splitmix64_next

# Independent references: splitmix64 (Vigna's splitmix64.c) from seeds 0 and 1234567,
# xoshiro256** (Vigna's xoshiro256starstar.c, as in rand_xoshiro) from the state {1, 2, 3, 4},
# xoshiro256** seeded by splitmix64(42), and the FNV-1a 64-bit test vectors.
SPLITMIX_0 = (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F)
SPLITMIX_1234567 = (
    6457827717110365317,
    3203168211198807973,
    9817491932198370423,
    4593380528125082431,
    16408922859458223821,
)
XOSHIRO_1234 = (
    11520,
    0,
    1509978240,
    1215971899390074240,
    1216172134540287360,
    607988272756665600,
    16172922978634559625,
    8476171486693032832,
    10595114339597558777,
    2904607092377533576,
)
XOSHIRO_SPLITMIX_42 = (
    1546998764402558742,
    6990951692964543102,
    12544586762248559009,
    17057574109182124193,
)

# Frozen streams of this project: changing any of these changes every seeded puzzle.
FROZEN_U64 = {
    0: (0x99EC5F36CB75F2B4, 0xBF6E1F784956452A, 0x1A5F849D4933E6E0, 0x6AA594F1262D2D2C,
        0xBBA5AD4A1F842E59, 0xFFEF8375D9EBCACA, 0x6C160DEED2F54C98, 0x8920AD648FC30A3F),
    1: (0xB3F2AF6D0FC710C5, 0x853B559647364CEA, 0x92F89756082A4514, 0x642E1C7BC266A3A7,
        0xB27A48E29A233673, 0x24C123126FFDA722, 0x123004EF8DF510E6, 0x61954DCC47B1E89D),
    2**64 + 5: (0x4ACA10DB90895706, 0xB2469D3E7354148A, 0xD8D09603BA3979F7, 0x5ED94123D673EE34,
                0xE21B8133EB46D8FC, 0x955F044F0E4BF387, 0x641801E0EA11574B, 0x05D34EBDE8A5E0E3),
    -3: (0xB797DE902293AD79, 0xB38CCB56832F3CA3, 0x33BDD4DA75E8ECBB, 0x1FDDF82FD4966EAC,
         0x6865833AF8B39979, 0x82B267CD20D468FF, 0xA5967B33643529BC, 0xFE52CF5338D01602),
}  # fmt: skip


def test_splitmix64_matches_the_reference() -> None:
    for seed, expected in ((0, SPLITMIX_0), (1234567, SPLITMIX_1234567)):
        state, got = seed, []
        for _ in expected:
            state, out = splitmix64_next(state)
            got.append(out)
        assert tuple(got) == expected


def test_xoshiro256starstar_matches_the_reference() -> None:
    rng = Rng.from_state((1, 2, 3, 4))
    assert tuple(rng.next_u64() for _ in XOSHIRO_1234) == XOSHIRO_1234


def test_seeding_is_splitmix64_into_xoshiro256starstar() -> None:
    rng = Rng(42)
    assert tuple(rng.next_u64() for _ in XOSHIRO_SPLITMIX_42) == XOSHIRO_SPLITMIX_42
    assert Rng(0).state[:3] == SPLITMIX_0


def test_fnv1a64_matches_the_reference() -> None:
    assert fnv1a64(b"") == 0xCBF29CE484222325
    assert fnv1a64(b"a") == 0xAF63DC4C8601EC8C
    assert fnv1a64(b"foobar") == 0x85944171F73967E8


@pytest.mark.parametrize("seed", sorted(FROZEN_U64))
def test_frozen_streams(seed: int) -> None:
    rng = Rng(seed)
    assert tuple(rng.next_u64() for _ in range(8)) == FROZEN_U64[seed]


def test_frozen_derived_draws() -> None:
    rng = Rng(2024)
    assert [rng.below(6) for _ in range(16)] == [0, 0, 1, 1, 3, 2, 4, 0, 5, 2, 1, 0, 5, 3, 5, 2]
    rng = Rng(2024)
    assert [rng.below(1000003) for _ in range(3)] == [58503, 820095, 75555]
    items = list(range(12))
    Rng(99).shuffle(items)
    assert items == [11, 7, 8, 10, 1, 4, 0, 2, 3, 6, 9, 5]
    assert Rng(99).sample("abcdefghij", 5) == ["f", "h", "i", "j", "a"]
    rng = Rng(3)
    assert [rng.randint(-2, 2) for _ in range(12)] == [-1, 2, 1, 1, -1, -1, -2, -2, -2, 2, 2, 2]
    assert Rng(3).random() == float.fromhex("0x1.619b57b5cacd1p-1")


def test_frozen_forks() -> None:
    child = Rng(11).fork("generate")
    assert [child.next_u64() for _ in range(2)] == [0x36EFAB8664255C45, 0x80634CC588C005DC]
    child = Rng(11).fork("générer")
    assert [child.next_u64() for _ in range(2)] == [0x27ADFF6F568F7A46, 0x9AE07C80F8A01561]


def test_fork_leaves_the_parent_alone_and_depends_on_label_and_state() -> None:
    parent = Rng(5)
    before = parent.state
    a, again, b = parent.fork("a"), parent.fork("a"), parent.fork("b")
    assert parent.state == before
    assert a.state == again.state != b.state
    parent.next_u64()
    assert parent.fork("a").state != a.state


def test_large_and_negative_seeds_are_distinct() -> None:
    seeds = [-1, -2, 2**64, 2**64 + 1, 2**128, -(2**64), 0, 1]
    assert len({reduce_seed(s) for s in seeds}) == len(seeds)
    assert all(0 <= reduce_seed(s) <= MASK for s in seeds)


@given(st.integers())
def test_any_int_seeds_a_reproducible_stream(seed: int) -> None:
    a, b = Rng(seed), Rng(seed)
    assert [a.next_u64() for _ in range(3)] == [b.next_u64() for _ in range(3)]


@given(st.integers(min_value=0), st.integers(min_value=1, max_value=2**200))
def test_below_stays_in_range(seed: int, n: int) -> None:
    assert 0 <= Rng(seed).below(n) < n


@given(st.integers(min_value=0), st.lists(st.integers(), max_size=30), st.data())
def test_shuffle_and_sample_permute(seed: int, items: list[int], data: st.DataObject) -> None:
    rng = Rng(seed)
    shuffled = list(items)
    rng.shuffle(shuffled)
    assert sorted(shuffled) == sorted(items)
    k = data.draw(st.integers(min_value=0, max_value=len(items)))
    picked = rng.sample(range(len(items)), k)
    assert len(set(picked)) == k


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=0, max_value=300))
def test_shuffle_draws_as_below_does(seed: int, n: int) -> None:
    """`shuffle` writes `next_u64` out in its loop: the same permutation, and the stream
    left where Fisher-Yates by `below` leaves it."""
    rng, by_below = Rng(seed), Rng(seed)
    shuffled, expected = list(range(n)), list(range(n))
    rng.shuffle(shuffled)
    for i in range(n - 1, 0, -1):
        j = by_below.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert shuffled == expected
    assert rng.state == by_below.state


def test_below_is_roughly_uniform() -> None:
    rng = Rng(123)
    counts = Counter(rng.below(6) for _ in range(60000))
    assert sorted(counts) == list(range(6))
    assert all(abs(count - 10000) <= 500 for count in counts.values())


def test_random_is_in_the_unit_interval() -> None:
    rng = Rng(8)
    values = [rng.random() for _ in range(1000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert 0.45 < sum(values) / len(values) < 0.55


def test_bad_arguments_raise_value_error() -> None:
    rng = Rng(1)
    with pytest.raises(ValueError, match="at least 1"):
        rng.below(0)
    with pytest.raises(ValueError, match="empty range"):
        rng.randint(3, 2)
    with pytest.raises(ValueError, match="empty"):
        rng.choice([])
    with pytest.raises(ValueError, match="sample"):
        rng.sample([1, 2], 3)
    with pytest.raises(ValueError, match="sample"):
        rng.sample([1, 2], -1)
    with pytest.raises(ValueError, match="not all zero"):
        Rng.from_state((0, 0, 0, 0))
    assert rng.below(1) == 0
    assert rng.choice("x") == "x"
