"""The API's routes, one module per part of the product; each only translates a request
into service-layer calls and their results into JSON (`create_app` includes them all)."""

from gridproof.web.routes import playing, puzzles, tools, workshop

ROUTERS = (puzzles.router, playing.router, workshop.router, tools.router)
