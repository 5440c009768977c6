"""The FastAPI app: `GET /` (the page), and a JSON API that only translates for the service.

Any `GridproofError` and any malformed request is HTTP 400 `{"error": message}`; counting
runs in a worker thread, always under a deadline.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from gridproof import __version__, service
from gridproof.core.errors import GridproofError

MAX_SOURCE_CHARS = 100_000
MAX_DEADLINE_S = 10.0
MAX_LIMIT = 100
MAX_GRID_ROWS = 1000

Source = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_SOURCE_CHARS,
        description="a puzzle code, a puzz.link URL or a JSON puzzle (no file paths)",
    ),
]

app = FastAPI(
    title="gridproof",
    version=__version__,
    description="Pencil puzzles proven to have exactly one solution.",
)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CountRequest(_Body):
    source: Source
    limit: int = Field(2, ge=2, le=MAX_LIMIT, description="stop after this many solutions")
    deadline_s: float = Field(
        5.0, gt=0, allow_inf_nan=False, description=f"seconds; at most {MAX_DEADLINE_S:g}"
    )


class ConvertRequest(_Body):
    source: Source
    to: Literal["code", "url", "json"]


class ValidateRequest(_Body):
    source: Source
    grid: list[Annotated[str, Field(max_length=MAX_GRID_ROWS)]] = Field(
        min_length=1, max_length=MAX_GRID_ROWS, description="rows of text, '#' shaded"
    )


# --- errors ------------------------------------------------------------------------------


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


@app.exception_handler(GridproofError)
async def _gridproof_error(request: Request, error: GridproofError) -> JSONResponse:
    return _error(400, str(error))


@app.exception_handler(RequestValidationError)
async def _invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
    problems = [_describe(problem) for problem in error.errors()]
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    return _error(400, "invalid request: " + "; ".join(problems[:3]) + more)


@app.exception_handler(HTTPException)
async def _http_error(request: Request, error: HTTPException) -> JSONResponse:
    return _error(error.status_code, str(error.detail))


def _describe(problem: Any) -> str:
    """`limit: Input should be greater than or equal to 2` from a pydantic error record."""
    loc = tuple(problem.get("loc", ()))
    if problem.get("type") == "json_invalid":
        at = f" at character {loc[1]}" if len(loc) > 1 else ""
        return f"the body is not valid JSON{at} ({problem.get('ctx', {}).get('error', 'syntax')})"
    where = ".".join(str(part) for part in loc if part != "body")
    if where:
        return f"{where}: {problem.get('msg', 'is invalid')}"
    if problem.get("type") == "missing":
        return "the body is missing: send a JSON object"
    return "the body must be a JSON object sent as application/json"


# --- the page ----------------------------------------------------------------------------


@cache
def _page() -> tuple[str, str]:
    """The page and its Content-Security-Policy (its one inline script allowed by hash)."""
    html = resources.files("gridproof.web").joinpath("static/index.html").read_text("utf-8")
    none = "'none'"
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()}'"
        for script in re.findall(r"<script>(.*?)</script>", html, re.DOTALL)
    )
    policy = (
        f"default-src 'none'; script-src {hashes or none}; "
        "style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
    return html, policy


@app.get("/", response_class=HTMLResponse, include_in_schema=False)
def index() -> HTMLResponse:
    html, policy = _page()
    return HTMLResponse(
        html,
        headers={
            "Content-Security-Policy": policy,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
        },
    )


# --- the API -----------------------------------------------------------------------------


@app.get("/api/genres")
def genres() -> list[dict[str, Any]]:
    """Every registered genre: name, title and the rungs of its ladder."""
    return service.genre_list()


@app.post("/api/count")
async def count(body: CountRequest) -> dict[str, Any]:
    """Count the solutions of the first puzzle in `source` (deadline at most 10 s)."""
    deadline_s = min(body.deadline_s, MAX_DEADLINE_S)

    def work() -> dict[str, Any]:
        return service.count(_first(body.source), body.limit, deadline_s)

    return await run_in_threadpool(work)


@app.post("/api/convert")
def convert(body: ConvertRequest) -> dict[str, Any]:
    """The first puzzle in `source` as a code, a puzz.link URL or JSON text."""
    item = _first(body.source)
    return {"id": item.id, "to": body.to, "result": service.convert(item, body.to)}


@app.post("/api/validate")
def validate(body: ValidateRequest) -> dict[str, Any]:
    """The rules `grid` breaks in the first puzzle in `source`; `solved` when none."""
    item = _first(body.source)
    violations = service.validate(item, body.grid)
    return {"id": item.id, "solved": not violations, "violations": violations}


def _first(source: str) -> service.Loaded:
    return service.load(source, files=False)[0]
