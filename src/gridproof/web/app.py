"""The FastAPI app: the player page, its static ES modules, and a JSON API that only
translates for the service layer (`gridproof.service`, its `play`, `workshop` and `games`,
and the bank).

`create_app()` makes one: the page and the static files, the middleware (`guard`: hosts,
body sizes, security headers; `limits`: per-client limits), the routes (`routes/`), the
error handlers (`errors`) and the lifespan that starts and stops what the app holds
(`context`: the bank, the generation processes, the background filler, with the settings
read from the environment). `app` is the one `gridproof serve` runs
(`gridproof.web.app:app`).

Every solver call runs under a deadline, off the event loop: generation in a worker process
killed when the client disconnects, hints and checks in a thread whose deadline is cancelled
then. The OpenAPI schema is at `/openapi.json`; no documentation page that would load a CDN.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from gridproof.version import __version__
from gridproof.web import errors
from gridproof.web.context import lifespan
from gridproof.web.guard import Guard
from gridproof.web.limits import Limits
from gridproof.web.routes import ROUTERS


def create_app() -> FastAPI:
    """A new app serving the player, the workshop and the API (see the module)."""
    made = FastAPI(
        title="gridproof",
        version=__version__,
        description="Pencil puzzles proven to have exactly one solution, and a player for them.",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    made.mount("/static", StaticFiles(packages=[("gridproof.web", "static")]), name="static")
    made.add_middleware(Limits)  # inside the Guard: a request for another host is refused first
    made.add_middleware(Guard)
    made.add_api_route(
        "/", index, methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
    )
    for router in ROUTERS:
        made.include_router(router)
    errors.install(made)
    return made


@cache
def _page() -> str:
    return resources.files("gridproof.web").joinpath("static/index.html").read_text("utf-8")


def index() -> HTMLResponse:
    return HTMLResponse(_page())  # the security headers come with every response (Guard)


app = create_app()
