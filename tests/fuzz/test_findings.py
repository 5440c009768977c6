"""What the fuzz harness found, each kept as the smallest input that shows it (see
/work/notes/fuzz-findings.md for where and how each was found). Every test states the
promise the input broke: a `CodeError` (exit status 2, HTTP 400) with a one-line message,
or an answer; never a traceback, a `ValueError` from below or an HTTP 500.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from gridproof import service
from gridproof.core.errors import CodeError
from tests.fuzz.cli_target import CliTarget, check_cli
from tests.fuzz.harness import REJECTED
from tests.fuzz.web_target import ApiTarget, Call, check_response

HUGE = "1" + "0" * 4999
"""A JSON integer of 5,000 digits: past Python's int-to-string limit of 4,300."""
NINES = "9" * 4300
"""The longest integer JSON may carry; two of them sum past the limit."""
SURROGATE_ID = (
    '{"id": "\\ud800", "genre": "norinori", "width": 2, "height": 1, "regions": [[0, 0]]}'
)
"""A valid puzzle whose id is a lone surrogate (valid JSON text, no valid UTF-8)."""


@pytest.fixture(scope="module")
def cli() -> Iterator[CliTarget]:
    target = CliTarget()
    yield target
    target.close()


@pytest.fixture(scope="module")
def api() -> Iterator[ApiTarget]:
    target = ApiTarget(new_budget=0)
    yield target
    target.close()


def post(api: ApiTarget, path: str, body: dict[str, object]) -> str:
    call = Call("POST", path, body=json.dumps(body).encode())
    response = api.client.request(call.method, call.url, content=call.body, headers=call.headers)
    return check_response(call, response.status_code, response.text)


# --- integers past the int-to-string limit ------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"genre": "norinori", "width": ' + HUGE + "}",
        '{"genre": "nonogram", "rows": [[' + HUGE + "]], " + '"cols": [[1]]}',
        '{"genre": "nondango", "puzzles": [{"width": -' + HUGE + "}]}",
    ],
    ids=["width", "clue", "corpus"],
)
def test_a_json_integer_of_5000_digits_is_a_code_error(text: str) -> None:
    with pytest.raises(CodeError):
        service.load(text, files=False)


def test_nonogram_clues_whose_sum_has_4301_digits_are_a_code_error() -> None:
    text = '{"genre": "nonogram", "rows": [[' + NINES + ", " + NINES + ']], "cols": [[1]]}'
    with pytest.raises(CodeError):
        service.load(text, files=False)


def test_the_cli_rejects_a_5000_digit_integer_in_one_line(cli: CliTarget) -> None:
    ran = cli.call(["count", '{"genre": "norinori", "width": ' + HUGE + "}"])
    assert check_cli(ran) == REJECTED


def test_the_api_rejects_a_5000_digit_integer_with_a_400(api: ApiTarget) -> None:
    source = '{"genre": "norinori", "width": ' + HUGE + "}"
    assert post(api, "/api/count", {"source": source}) == REJECTED


# --- lone surrogates ----------------------------------------------------------------------


COMMANDS = [["count"], ["convert", "--to", "json"], ["solve", "--rules", "local"]]


@pytest.mark.parametrize("command", COMMANDS)
def test_the_cli_prints_a_puzzle_whose_id_is_a_lone_surrogate(
    cli: CliTarget, command: list[str]
) -> None:
    ran = cli.call([command[0], SURROGATE_ID, *command[1:]])
    assert check_cli(ran) in ("accepted", REJECTED)


@pytest.mark.parametrize("path", ["/api/count", "/api/convert", "/api/validate"])
def test_the_api_answers_a_puzzle_whose_id_is_a_lone_surrogate(api: ApiTarget, path: str) -> None:
    body: dict[str, object] = {"source": SURROGATE_ID}
    if path == "/api/convert":
        body["to"] = "code"
    if path == "/api/validate":
        body["grid"] = ["##"]
    assert post(api, path, body) in ("accepted", REJECTED)


# --- key names in error messages -----------------------------------------------------------


@pytest.mark.parametrize("key", ["a\nb", "a\rb"])
def test_an_unknown_key_with_a_line_break_gives_a_one_line_error(api: ApiTarget, key: str) -> None:
    assert post(api, "/api/count", {"source": "norinori.1.4x4.Styg", key: 1}) == REJECTED
