"""The web layer: a JSON API over `gridproof.service` and a plain page (see `app`)."""
