"""Pictures under fuzz: small images in every format read (PNG, JPEG, GIF, BMP, WebP) and a
few it refuses (TIFF, ICO), their bytes mutated (flipped, cut, spliced, a header's size
rewritten), through `picture.read_picture`. Anything but a mask or a `CodeError` is a
finding; so is a mask of the wrong size."""

from __future__ import annotations

import io
import random
import struct
import tempfile
from functools import cache
from pathlib import Path

from gridproof.core.errors import CodeError
from tests.fuzz.harness import ACCEPTED, REJECTED, Failure, Target

KINDS = ("PNG", "JPEG", "GIF", "BMP", "WEBP", "TIFF", "ICO")


@cache
def picture_seeds() -> tuple[bytes, ...]:
    from PIL import Image, ImageDraw

    made = []
    for kind in KINDS:
        for mode in ("L", "RGB", "RGBA", "P"):
            if (kind, mode) in (("JPEG", "RGBA"), ("JPEG", "P"), ("BMP", "RGBA")):
                continue
            image = Image.new(mode, (24, 16), "white" if mode != "P" else 1)
            ImageDraw.Draw(image).rectangle((2, 2, 12, 9), fill="black" if mode != "P" else 0)
            out = io.BytesIO()
            image.save(out, kind)
            made.append(out.getvalue())
    return tuple(made)


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    raw = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        if roll < 0.35 and raw:
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        elif roll < 0.5:
            del raw[rng.randrange(len(raw) + 1) :]
        elif roll < 0.65 and raw:
            at = rng.randrange(len(raw))
            raw[at:at] = raw[at : at + rng.randint(1, 64)]
        elif roll < 0.8 and len(raw) > 24:
            at = rng.randrange(8, len(raw) - 8)  # a size-like field claiming a huge picture
            raw[at : at + 4] = struct.pack(">I", rng.choice((0, 1, 8000, 65535, 2**31 - 1)))
        else:
            at = rng.randrange(len(raw) + 1)
            raw[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    return bytes(raw)


class PictureTarget(Target):
    name = "picture"
    cap_s = 20.0

    def __init__(self) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="gridproof-fuzz-picture-")
        self.path = Path(self.folder.name) / "picture"

    def make(self, rng: random.Random) -> tuple[bytes, int, int]:
        data = rng.choice(picture_seeds())
        if rng.random() < 0.9:
            data = mutate_bytes(rng, data)
        return data, rng.randint(1, 12), rng.randint(1, 12)

    def run(self, case: tuple[bytes, int, int]) -> str:
        from gridproof.output.picture import read_picture

        data, width, height = case
        self.path.write_bytes(data)
        try:
            mask = read_picture(str(self.path), width, height)
        except CodeError as error:
            if "\n" in str(error):
                raise Failure("picture error spans lines") from None
            return REJECTED
        if mask < 0 or mask.bit_length() > width * height:
            raise Failure("picture mask larger than the board")
        return ACCEPTED

    def reproduce(self, case: tuple[bytes, int, int]) -> str:
        data, width, height = case
        return f"read_picture(<file of {data[:200]!r}...>, {width}, {height})"

    def close(self) -> None:
        self.folder.cleanup()
