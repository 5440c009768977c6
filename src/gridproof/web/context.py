"""What a running app holds: its settings (read from the environment at start-up), the
bank, the answers it counted, the generation processes and the background filler.

Settings: `GRIDPROOF_DB` (the bank file, see `gridproof.bank`), `GRIDPROOF_FILL` (`0` turns
the background filler off), `GRIDPROOF_FILL_TARGET` (the stock of unserved boards kept per
setting; default by size, `bank.STOCK`), `GRIDPROOF_FILL_MAX_SIDE` (largest side stocked,
default 30: every offered size), `GRIDPROOF_WORKERS` (generation processes at once, default
up to 4), `GRIDPROOF_GENERATE_S` (the longest on-demand generation deadline, default 60).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from fastapi import FastAPI, Request

from gridproof import bank
from gridproof.service import play
from gridproof.web import workers


@dataclass
class Settings:
    db: str
    fill: bool = True
    fill_target: int | None = None
    """The stock kept per key (None: `bank.stock_depth`, by size)."""
    fill_max_side: int = 30
    workers: int = 4
    generate_s: float = 60.0

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            db=str(bank.default_path()),
            fill=env.get("GRIDPROOF_FILL", "1").strip() not in ("0", "no", "false", "off"),
            fill_target=int(target) if (target := env.get("GRIDPROOF_FILL_TARGET")) else None,
            fill_max_side=int(env.get("GRIDPROOF_FILL_MAX_SIDE", "30")),
            workers=int(env.get("GRIDPROOF_WORKERS", str(min(4, os.cpu_count() or 1)))),
            generate_s=float(env.get("GRIDPROOF_GENERATE_S", "60")),
        )


@dataclass
class Context:
    """What the app holds while it runs."""

    settings: Settings
    bank: bank.Bank
    answers: play.Answers
    processes: workers.Processes
    filler: workers.Filler | None = None

    @classmethod
    def start(cls, settings: Settings) -> Context:
        store = bank.Bank(settings.db)
        workers.warm()
        context = cls(settings, store, play.Answers(store), workers.Processes(settings.workers))
        if settings.fill:
            plan = bank.fill_plan(settings.fill_max_side)
            depth = settings.fill_target if settings.fill_target is not None else bank.stock_depth
            context.filler = workers.Filler(settings.db, plan, depth, bank.FILL_SECONDS)
            context.filler.start()
        return context

    def served(self) -> None:
        """A board was served: the filler tops the stock up."""
        if self.filler is not None:
            self.filler.nudge()

    def stop(self) -> None:
        self.processes.kill_all()
        if self.filler is not None:
            self.filler.stop()


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    outer = getattr(app.state, "context", None)  # an app served twice at once (tests)
    context = Context.start(Settings.from_env())
    app.state.context = context
    try:
        yield
    finally:
        context.stop()
        app.state.context = outer


def context_of(request: Request) -> Context:
    context: Context | None = getattr(request.app.state, "context", None)
    if context is None:  # used without its lifespan (a bare ASGI call): start lazily
        context = Context.start(Settings.from_env())
        request.app.state.context = context
    return context
