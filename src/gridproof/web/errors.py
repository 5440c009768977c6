"""How the API says what went wrong: every error is `{"error": message}` (plus the
generator's `health` on a 503 from generation), never a traceback.

Any `GridproofError` and any malformed request is 400; a board that cannot be generated in
time, a worker that failed, a request its client abandoned, memory and the bank failing are
503. `install` registers the handlers on an app.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from gridproof.core.errors import GenerationError, GridproofError, quote
from gridproof.web import workers

log = logging.getLogger("gridproof.web")


def install(app: FastAPI) -> None:
    """Register every error handler of the API on `app`."""
    app.add_exception_handler(GenerationError, _generation_error)  # type: ignore[arg-type]
    app.add_exception_handler(GridproofError, _gridproof_error)  # type: ignore[arg-type]
    app.add_exception_handler(workers.WorkerFailed, _worker_failed)  # type: ignore[arg-type]
    app.add_exception_handler(workers.Gone, _gone)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(MemoryError, _out_of_memory)  # type: ignore[arg-type]
    app.add_exception_handler(sqlite3.Error, _bank_error)  # type: ignore[arg-type]


def _error(status: int, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status_code=status)


async def _generation_error(request: Request, error: GenerationError) -> JSONResponse:
    return _error(503, str(error), health=error.health)


async def _gridproof_error(request: Request, error: GridproofError) -> JSONResponse:
    return _error(400, str(error))


async def _worker_failed(request: Request, error: workers.WorkerFailed) -> JSONResponse:
    log.error("generation worker failed: %s", error)
    return _error(503, f"the generator failed: {error}")


async def _gone(request: Request, error: workers.Gone) -> JSONResponse:
    return _error(503, "the request was abandoned by the client")


async def _invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
    problems = [_describe(problem) for problem in error.errors()]
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    return _error(400, "invalid request: " + "; ".join(problems[:3]) + more)


async def _http_error(request: Request, error: HTTPException) -> JSONResponse:
    response = _error(error.status_code, str(error.detail))
    response.headers.update(error.headers or {})  # a 405's Allow, say
    return response


def _describe(problem: Any) -> str:
    """`limit: Input should be greater than or equal to 2` from a pydantic error record."""
    loc = tuple(problem.get("loc", ()))
    if problem.get("type") == "json_invalid":
        at = f" at character {loc[1]}" if len(loc) > 1 else ""
        return f"the body is not valid JSON{at} ({problem.get('ctx', {}).get('error', 'syntax')})"
    where = ".".join(_key(part) for part in loc if part not in ("body", "query"))
    message = " ".join(str(problem.get("msg", "is invalid")).split())
    if where:
        return f"{where}: {message}"
    if problem.get("type") == "value_error":
        return message.removeprefix("Value error, ")
    if problem.get("type") == "missing":
        return "the body is missing: send a JSON object"
    return "the body must be a JSON object sent as application/json"


def _key(part: object) -> str:
    """A key of the request as an error message names it: quoted unless it is a plain name
    (a key the client made up may hold line breaks or anything else)."""
    text = str(part)
    return text if text.isidentifier() or text.isdigit() else quote(text)


async def _out_of_memory(request: Request, error: MemoryError) -> JSONResponse:
    log.error("a request ran out of memory: %s %s", request.method, request.url.path)
    return _error(503, "this board needs more memory than the server gives one request")


async def _bank_error(request: Request, error: sqlite3.Error) -> JSONResponse:
    log.error("the puzzle bank failed: %s", error)
    return _error(503, f"the puzzle bank cannot be read: {' '.join(str(error).split())}")
