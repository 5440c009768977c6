"""The built-in genres: each folder here is the genre of that name. Importing this package
declares them to the registry; a genre's own code is imported when it is first asked for
(`core.registry.genre`)."""

import pkgutil

from gridproof.core import registry

for _found in pkgutil.iter_modules(__path__):
    if _found.ispkg:
        registry.declare(_found.name, f"{__name__}.{_found.name}")
