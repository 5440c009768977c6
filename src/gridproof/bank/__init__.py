"""The puzzle bank: proven boards in SQLite, how they are filled, moved and trusted.

- `store`: the bank file itself (`Bank`, `Key`, `Record`), the stock per setting and the
  background fill a server runs; its names are re-exported here, so `bank.Bank` is
  `bank.store.Bank`.
- `schema`: the tables and the migrations between schema versions.
- `evidence`: which counts proved a board, and its canonical code.
- `filler`: bulk filling, seeds in order, one writer, resumable.
- `runners`: where a fill's work runs (here, a process pool, a Dask cluster).
- `io`: statistics, export (JSONL, puzz.link URLs) and import, each board counted again.

Importing this package opens SQLite and `platformdirs`; `import gridproof` does not import it
(`tests/test_architecture.py` holds that).
"""

from gridproof.bank.schema import SCHEMA_VERSION
from gridproof.bank.store import (
    BUSY_TIMEOUT_S,
    FILL_SECONDS,
    GENERATE_SECONDS,
    MADE_BY_HAND,
    MISSES_BEFORE_SKIP,
    STOCK,
    VERIFY_SECONDS,
    Bank,
    Key,
    Record,
    check_key,
    default_path,
    fill,
    fill_plan,
    hand_made_record,
    insert,
    make_record,
    offered_keys,
    options_of,
    options_text,
    prove_board,
    stock_depth,
)
from gridproof.service.settings import (
    STANDARD_SIDES,
    check_options,
    choices,
    default_difficulty,
    offered_sizes,
)

__all__ = [
    "BUSY_TIMEOUT_S",
    "FILL_SECONDS",
    "GENERATE_SECONDS",
    "MADE_BY_HAND",
    "MISSES_BEFORE_SKIP",
    "SCHEMA_VERSION",
    "STANDARD_SIDES",
    "STOCK",
    "VERIFY_SECONDS",
    "Bank",
    "Key",
    "Record",
    "check_key",
    "check_options",
    "choices",
    "default_difficulty",
    "default_path",
    "fill",
    "fill_plan",
    "hand_made_record",
    "insert",
    "make_record",
    "offered_keys",
    "offered_sizes",
    "options_of",
    "options_text",
    "prove_board",
    "stock_depth",
]
