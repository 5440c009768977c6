"""The built-in genres: each folder here is the genre of that name. Importing this package
declares them to the registry; a genre's own code is imported when it is first asked for
(`core.registry.genre`). The folders are listed with `os.scandir` (`pkgutil` would cost
more than the rest of `import gridproof`), or with `pkgutil` where the package is not in
folders (a zip on the path)."""

import os

from gridproof.core import registry


def _folders() -> list[str]:
    try:
        return sorted(
            found.name
            for place in __path__
            for found in os.scandir(place)
            if found.is_dir() and os.path.isfile(os.path.join(found.path, "__init__.py"))
        )
    except OSError:
        import pkgutil

        return sorted(found.name for found in pkgutil.iter_modules(__path__) if found.ispkg)


for _name in _folders():
    registry.declare(_name, f"{__name__}.{_name}")
