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
MAX_IMAGE_PIXELS = 64_000_000
"""Larger images are refused before they are decoded (a decompression bomb guard)."""


def read_picture(path: str, width: int, height: int, threshold: int = 128) -> int:
    """The shaded-cell mask of the image at `path` scaled to `width` × `height`: a cell is
    shaded when its average grey (0 black .. 255 white) is below `threshold`."""
    if not 0 <= threshold <= 256:
        raise CodeError(f"threshold {threshold} is not a grey level from 0 to 256")
    image = _open(path)
    grey = _flattened(image).resize((width, height), _box())
    values = list(grey.get_flattened_data())
    mask = 0
    for cell, value in enumerate(values):
        if value < threshold:
            mask |= 1 << cell
    return mask


def _open(path: str) -> Any:
    try:
        from PIL import Image, ImageOps, UnidentifiedImageError
    except ImportError:
        raise CodeError("reading pictures needs Pillow: pip install 'gridproof[picture]'") from None
    file = Path(path)
    try:
        size = file.stat().st_size if file.is_file() else None
    except OSError as error:
        raise CodeError(f"cannot read picture {quote(path)}: {error.strerror}") from None
    if size is None:
        raise CodeError(f"cannot read picture {quote(path)}: no such file")
    if size > MAX_IMAGE_BYTES:
        raise CodeError(f"picture {quote(path)} is larger than {MAX_IMAGE_BYTES} bytes")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(file)
            if image.width * image.height > MAX_IMAGE_PIXELS:
                raise ValueError(f"{image.width}x{image.height} pixels is too many")
            image.load()
            return ImageOps.exif_transpose(image)
    except UnidentifiedImageError:
        raise CodeError(f"{quote(path)} is not a picture Pillow can read") from None
    except (
        OSError,
        ValueError,
        Image.DecompressionBombError,
        Image.DecompressionBombWarning,
    ) as error:
        raise CodeError(f"cannot read picture {quote(path)}: {error}") from None


def _flattened(image: Any) -> Any:
    """The image in grey levels, transparent parts white."""
    from PIL import Image

    rgba = image.convert("RGBA")
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return Image.alpha_composite(white, rgba).convert("L")


def _box() -> Any:
    from PIL import Image

    return Image.Resampling.BOX
