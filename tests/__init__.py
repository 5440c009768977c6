"""The test tree. Importing it lets the in-process test client's Host name, `testserver`,
through the web app's Guard, which serves it only when named (never in production)."""

import os

_HOSTS = [h for h in os.environ.get("GRIDPROOF_HOSTS", "").split(",") if h.strip()]
os.environ["GRIDPROOF_HOSTS"] = ",".join([*_HOSTS, "testserver"])
