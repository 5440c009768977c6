"""Pictures read from image files: the start of a Nonogram, as its makers start from a
drawing. The image is flattened onto white, scaled to the board with box averaging, and
every cell darker than the threshold is shaded. Reading needs Pillow (the `picture` extra);
nothing else in gridproof does.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from gridproof.core.errors import CodeError, quote

MAX_IMAGE_BYTES = 50 * 1024 * 1024
FORMATS = ("PNG", "JPEG", "GIF", "BMP", "WEBP")
"""The formats read (Pillow's names): never one whose plugin runs a program (EPS would run
Ghostscript) or that nobody draws a picture in."""
MAX_IMAGE_PIXELS = 16_000_000
"""The pixel budget, checked on the size the file's header declares, before anything is
decoded: a 4000x4000 picture decodes in under 100 MB (one byte a pixel once grey, four
while converted). A board is at most 1024x1024 cells, so no picture needs more."""
_DRAFT = 4
"""A JPEG is decoded straight at a reduced scale (its `draft` mode) while the result keeps
at least this many pixels a cell along each side."""


def read_picture(path: str, width: int, height: int, threshold: int = 128) -> int:
    """The shaded-cell mask of the image at `path` scaled to `width` × `height`: a cell is
    shaded when its average grey (0 black .. 255 white) is below `threshold`. Only the
    formats in `FORMATS` are read, to `MAX_IMAGE_PIXELS`; anything wrong with the file is a
    one-line `CodeError`."""
    if not 0 <= threshold <= 256:
        raise CodeError(f"threshold {threshold} is not a grey level from 0 to 256")
    grey = _decoded(path, width, height).resize((width, height), _box())
    values = bytes(grey.tobytes())  # one byte a cell, row-major
    return int("".join("1" if v < threshold else "0" for v in reversed(values)) or "0", 2)


def _pillow() -> Any:
    try:
        from PIL import Image
    except ImportError:
        raise CodeError("reading pictures needs Pillow: pip install 'gridproof[picture]'") from None
    return Image


def _checked_size(path: str) -> Path:
    file = Path(path)
    try:
        size = file.stat().st_size if file.is_file() else None
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not a file name"
        raise CodeError(f"cannot read picture {quote(path)}: {reason}") from None
    if size is None:
        raise CodeError(f"cannot read picture {quote(path)}: no such file")
    if size > MAX_IMAGE_BYTES:
        raise CodeError(f"picture {quote(path)} is larger than {MAX_IMAGE_BYTES} bytes")
    return file


def _decoded(path: str, width: int, height: int) -> Any:
    """The picture at `path` in grey levels (transparent parts white), decoded only once
    its declared size is within the budget."""
    image_module = _pillow()
    from PIL import ImageOps, UnidentifiedImageError

    file = _checked_size(path)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", image_module.DecompressionBombWarning)
            with image_module.open(file, formats=FORMATS) as image:
                pixels = image.width * image.height
                if pixels > MAX_IMAGE_PIXELS:
                    raise CodeError(
                        f"picture {quote(path)} is {image.width}x{image.height} pixels, "
                        f"more than the {MAX_IMAGE_PIXELS:,} read"
                    )
                if image.format == "JPEG":
                    image.draft("L", (width * _DRAFT, height * _DRAFT))
                image.load()
                return _flattened(ImageOps.exif_transpose(image))
    except CodeError:
        raise
    except UnidentifiedImageError:
        names = ", ".join(FORMATS)
        raise CodeError(f"{quote(path)} is not a picture in a format read ({names})") from None
    except MemoryError:
        raise CodeError(f"picture {quote(path)} needs more memory than there is") from None
    except Exception as error:  # a decoder reading a broken file raises what it meets
        reason = " ".join(str(error).split()) or type(error).__name__
        raise CodeError(f"cannot read picture {quote(path)}: {reason}") from None


def _flattened(image: Any) -> Any:
    """The image in grey levels, transparent parts white."""
    from PIL import Image

    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        grey_alpha = image.convert("RGBA").convert("LA")  # a palette's transparency too
        white = Image.new("L", image.size, 255)
        white.paste(grey_alpha.getchannel("L"), mask=grey_alpha.getchannel("A"))
        return white
    return image.convert("L")


def _box() -> Any:
    from PIL import Image

    return Image.Resampling.BOX
