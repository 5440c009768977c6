"""The whole product as a static site: the engine runs in the page (Pyodide in a Web
Worker), the bank's boards are static files, and a service worker keeps it all offline.

- `engine`: the calls the page's worker makes, JSON in and JSON out, over the service
  layer (hint, check, a verdict, make unique, repairs, a new game, the day's puzzle).
- `export`: a bank written as static shards by genre, size and grade, with an index.
- `build`: `site/` assembled: the player's files, the package, Pyodide, shards, service
  worker.

Nothing here is imported by `import gridproof`; `engine` imports neither the bank nor the
web stack (SQLite and platformdirs are not in a browser's Python).
"""
